// The public pages: prerendered in every language at build time and served by CloudFront as real HTML.
import { languages, localizePath } from '../i18n/languages';

export const publicPages = ['/'] as const;

export const prerenderedPaths = publicPages.flatMap((page) => languages.map((language) => localizePath(page, language)));
