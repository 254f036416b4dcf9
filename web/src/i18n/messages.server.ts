// Build-time access to the catalogues, for the loaders of prerendered pages: a page's HTML carries only the
// sections it renders, in its own language, so no catalogue ships as JavaScript to public pages. The catalogue is
// loaded the way app pages load it (load-messages.ts), so each language stays its own chunk in every build.
import type { LanguageCode } from './languages';
import { loadMessages } from './load-messages';
import type { PartialMessages, Section } from './catalogue';

/** What every public page renders: header, footer, consent banner, error and update notices. */
export const shellSections = ['meta', 'common', 'nav', 'footer', 'cookie', 'notFound', 'errorScreen', 'update'] as const satisfies readonly Section[];

/** A whole section, or one part of it (`videos.quality`) for a page that renders only that much of the section. */
export type MessagePath = Section | `${Section}.${string}`;

export async function messagesFor(code: LanguageCode, paths: readonly MessagePath[]): Promise<PartialMessages> {
  const catalogue = await loadMessages(code);
  const picked: Record<string, Record<string, unknown>> = {};
  for (const path of paths) {
    const [section, part] = path.split('.', 2) as [Section, string | undefined];
    const whole = catalogue[section] as Record<string, unknown>;
    picked[section] = part === undefined ? whole : { ...picked[section], [part]: whole[part] };
  }
  // A part stands for its section on a page that reads nothing else of it.
  return picked as PartialMessages;
}
