// Titles and descriptions of pages, from the texts their loaders brought (public pages) or loaded (app pages).
import type { MetaDescriptor } from 'react-router';
import { languageOfPath } from '../i18n/languages';
import { createTranslator, mergeMessages, type PartialMessages, type TranslateKey, type Vars } from '../i18n/translator';

interface MatchWithMessages {
  loaderData?: unknown;
}

export const messagesOfMatches = (matches: readonly (MatchWithMessages | undefined)[]): PartialMessages =>
  mergeMessages(matches.map((match) => (match?.loaderData as { messages?: PartialMessages } | undefined)?.messages));

export function pageMeta(
  args: { matches: readonly (MatchWithMessages | undefined)[]; location: { pathname: string } },
  title: { key: TranslateKey; vars?: Vars },
  description?: TranslateKey,
): MetaDescriptor[] {
  const t = createTranslator(languageOfPath(args.location.pathname).code, messagesOfMatches(args.matches));
  return [{ title: t(title.key, title.vars) }, ...(description ? [{ name: 'description', content: t(description) }] : [])];
}

/** "<page title> · Loopcast" for client-rendered pages, whose texts their route's loader loaded. */
export function titledMeta(args: { matches: readonly (MatchWithMessages | undefined)[]; location: { pathname: string } }, pageTitle: TranslateKey) {
  const t = createTranslator(languageOfPath(args.location.pathname).code, messagesOfMatches(args.matches));
  return [{ title: t('meta.appTitle', { page: t(pageTitle) }) }];
}
