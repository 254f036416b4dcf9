import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { ErrorKey } from '../../../lambdas/core/errors';
import { defaultLanguage, type Language } from './languages';
import { createTranslator, type PartialMessages, type Translate } from './translator';

/** API error keys plus the client's own: the network failed before any answer. */
export type ErrorTextKey = ErrorKey | 'network error';

export interface I18n {
  language: Language;
  t: Translate;
  /** The translated message of an error catalogue key (section "errors"). */
  errorText: (key: ErrorTextKey) => string;
}

const I18nContext = createContext<I18n>({
  language: defaultLanguage,
  t: createTranslator(defaultLanguage.code, {}),
  errorText: (key) => key,
});

export function I18nProvider({ language, messages, children }: { language: Language; messages: PartialMessages; children: ReactNode }) {
  const value = useMemo<I18n>(
    () => ({
      language,
      t: createTranslator(language.code, messages),
      errorText: (key) => messages.errors?.[key] ?? messages.errors?.['internal error'] ?? key,
    }),
    [language, messages],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useI18n = (): I18n => useContext(I18nContext);
