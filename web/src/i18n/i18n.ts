import { createInstance, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import es from './locales/es.json';
import hi from './locales/hi.json';
import ru from './locales/ru.json';
import ua from './locales/ua.json';
import { defaultLanguage, type LanguageCode } from './languages';

export type Messages = typeof en;

export const messages: Record<LanguageCode, Messages> = { en, es, hi, ru, ua };

const instances = new Map<LanguageCode, i18n>();

/** One initialised i18next instance per language, created synchronously (the prerender needs it so). */
export function i18nFor(code: LanguageCode): i18n {
  let instance = instances.get(code);
  if (!instance) {
    instance = createInstance();
    void instance.use(initReactI18next).init({
      lng: code,
      fallbackLng: defaultLanguage.code,
      resources: Object.fromEntries(Object.entries(messages).map(([lng, translation]) => [lng, { translation }])),
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    instances.set(code, instance);
  }
  return instance;
}
