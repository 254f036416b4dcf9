// Loading a whole catalogue, for client-rendered pages (/app/*, the not-found page). Each language is its own chunk,
// fetched once and only on those pages; public pages get their sections from prerendered data, which their
// build-time loaders take from here too (messages.server.ts).
import type { LanguageCode } from './languages';
import type { Messages } from './catalogue';

const catalogues = import.meta.glob<Messages>('./locales/*.json', { import: 'default' });
const loaded = new Map<LanguageCode, Promise<Messages>>();

export function loadMessages(code: LanguageCode): Promise<Messages> {
  let messages = loaded.get(code);
  if (!messages) {
    const load = catalogues[`./locales/${code}.json`];
    if (!load) throw new Error(`no catalogue for language ${code}`);
    messages = load().catch((error: unknown) => {
      loaded.delete(code); // a later navigation may retry (spec: locale loading failures are logged only)
      console.error('loading the translations failed', error);
      throw error;
    });
    loaded.set(code, messages);
  }
  return messages;
}
