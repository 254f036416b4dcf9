// react-i18next in the app: the page's i18next instance is provided to every component, and `useI18n()` is
// react-i18next's `useTranslation()` with the two things the app adds to it: the page's language (for Intl
// formatting and links) and the error catalogue's texts by key.
import { useMemo, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { PartialMessages } from './catalogue';
import { createI18n, errorTextOf, languageOf, type ErrorTextKey } from './i18n';
import type { Language } from './languages';

export type { ErrorTextKey } from './i18n';

export interface I18n {
  language: Language;
  t: TFunction;
  /** The translated message of an error catalogue key (section "errors"). */
  errorText: (key: ErrorTextKey) => string;
}

/** Provides an instance made for these texts; `I18nextProvider` directly when the caller has one already. */
export function I18nProvider({ language, messages, children }: { language: Language; messages: PartialMessages; children: ReactNode }) {
  const i18n = useMemo(() => createI18n(language, messages), [language, messages]);
  return <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
}

export function useI18n(): I18n {
  const { t, i18n } = useTranslation();
  return useMemo(() => ({ language: languageOf(i18n), t, errorText: (key) => errorTextOf(i18n, key) }), [t, i18n]);
}
