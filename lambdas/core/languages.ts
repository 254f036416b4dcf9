// The product's five languages (spec section 1) as the API knows them: e-mails are written in the user's
// language and their links carry its URL prefix. English has no prefix; "ua" is Ukrainian.
export const languageCodes = ['en', 'es', 'hi', 'ru', 'ua'] as const;
export type LanguageCode = (typeof languageCodes)[number];

export const urlPrefix = (language: LanguageCode): string => (language === 'en' ? '' : `/${language}`);
