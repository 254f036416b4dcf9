// Build-time access to every catalogue, for the loaders of prerendered pages: a page's HTML carries only the
// sections it renders, in its own language, so no catalogue ships as JavaScript to public pages.
import en from './locales/en.json';
import es from './locales/es.json';
import hi from './locales/hi.json';
import ru from './locales/ru.json';
import ua from './locales/ua.json';
import type { LanguageCode } from './languages';
import type { Messages, PartialMessages, Section } from './translator';

const catalogues: Record<LanguageCode, Messages> = { en, es, hi, ru, ua };

/** What every public page renders: header, footer, consent banner, error and update notices. */
export const shellSections = ['meta', 'common', 'nav', 'footer', 'cookie', 'notFound', 'errorScreen', 'update'] as const satisfies readonly Section[];

export function messagesFor(code: LanguageCode, sections: readonly Section[]): PartialMessages {
  const catalogue = catalogues[code];
  return Object.fromEntries(sections.map((section) => [section, catalogue[section]]));
}
