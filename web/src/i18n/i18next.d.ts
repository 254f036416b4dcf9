// i18next's keys and options checked at compile time against the English catalogue (i18n.ts sets the same options).
import 'i18next';
import type { Messages } from './catalogue';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Omit<Messages, 'errors'>; errors: Messages['errors'] };
    nsSeparator: false;
    returnNull: false;
  }
}
