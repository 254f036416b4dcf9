// Build-time access to the catalogues, for the loaders of prerendered pages: a page's HTML carries only the
// sections it renders, in its own language, so no catalogue ships as JavaScript to public pages. The catalogue is
// loaded the way app pages load it (load-messages.ts), so each language stays its own chunk in every build.
import type { LanguageCode } from './languages';
import { loadMessages } from './load-messages';
import type { PartialMessages, Section } from './catalogue';

/** What every public page renders: header, footer, consent banner, error and update notices. */
export const shellSections = ['meta', 'common', 'nav', 'footer', 'cookie', 'notFound', 'errorScreen', 'update'] as const satisfies readonly Section[];

export async function messagesFor(code: LanguageCode, sections: readonly Section[]): Promise<PartialMessages> {
  const catalogue = await loadMessages(code);
  return Object.fromEntries(sections.map((section) => [section, catalogue[section]]));
}
