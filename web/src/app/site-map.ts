// The public pages: prerendered at build time and served by CloudFront as real HTML. Legal texts exist in English
// only, so they are prerendered unprefixed; their prefixed variants answer 301 at the edge (web/edge/viewer-request.js,
// whose own copy of these lists a test keeps equal to this file).
import { languages, localizePath, type Language } from '../i18n/languages';

/** Pages in all five languages. */
export const translatedPages = ['/', '/pricing', '/soon'] as const;
/** English-only legal texts. */
export const legalPages = ['/terms', '/privacy', '/offer', '/refund-policy'] as const;

export type TranslatedPage = (typeof translatedPages)[number];
export type LegalPage = (typeof legalPages)[number];
export type PublicPage = TranslatedPage | LegalPage;

export const publicPages: readonly PublicPage[] = [...translatedPages, ...legalPages];

export const isLegalPage = (path: string): path is LegalPage => (legalPages as readonly string[]).includes(path);

/** Where a link to a public page goes from a page in `language`: legal pages always to their English original. */
export const publicHref = (page: PublicPage, language: Language): string => (isLegalPage(page) ? page : localizePath(page, language));

export const prerenderedPaths: string[] = [...translatedPages.flatMap((page) => languages.map((language) => localizePath(page, language))), ...legalPages];
