// Titles and descriptions of pages, from the texts their loaders brought (public pages) or loaded (app pages).
import type { ParseKeys } from 'i18next';
import type { MetaDescriptor } from 'react-router';
import type { PartialMessages } from '../i18n/catalogue';
import { i18nForPage } from '../i18n/i18n';
import { languageOfPath } from '../i18n/languages';

interface MatchWithMessages {
  loaderData?: unknown;
}
interface MetaArgsWithMessages {
  matches: readonly (MatchWithMessages | undefined)[];
  location: { pathname: string };
}

/** The texts each matched route's loader brought, outermost first. */
export const messagesOfMatches = (matches: readonly (MatchWithMessages | undefined)[]): (PartialMessages | undefined)[] =>
  matches.map((match) => (match?.loaderData as { messages?: PartialMessages } | undefined)?.messages);

const pageT = (args: MetaArgsWithMessages) => i18nForPage(languageOfPath(args.location.pathname), messagesOfMatches(args.matches)).t;

export function pageMeta(args: MetaArgsWithMessages, title: ParseKeys, description?: ParseKeys): MetaDescriptor[] {
  const t = pageT(args);
  return [{ title: t(title) }, ...(description ? [{ name: 'description', content: t(description) }] : [])];
}

/** "<page title> · Loopcast" for client-rendered pages, whose texts their route's loader loaded. */
export function titledMeta(args: MetaArgsWithMessages, pageTitle: ParseKeys) {
  const t = pageT(args);
  return [{ title: t('meta.appTitle', { page: t(pageTitle) }) }];
}
