import { useLocation, useNavigate } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import { languageByCode, languages, localizePath, type LanguageCode } from '../../../i18n/languages';
import { saveLanguageChoice } from '../../../i18n/locale-cookie';

/**
 * Saves the choice in the i18n_redirected cookie and opens the same page in the chosen language. Legal pages exist
 * in English only, so from there the chosen language's home page opens. On the static public pages the
 * `data-language-switcher` hook does the same (app/public-page-script.ts); in the app, React does.
 */
export function LanguageSwitcher({ englishOnlyPage = false }: { englishOnlyPage?: boolean }) {
  const { t, language } = useI18n();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const hrefOf = (code: LanguageCode) => {
    const target = languageByCode(code);
    return englishOnlyPage ? localizePath('/', target) : localizePath(pathname, target) + search;
  };
  return (
    <label className="language-switcher">
      <span className="visually-hidden">{t('nav.language')}</span>
      <svg className="language-switcher__icon" aria-hidden="true" viewBox="0 0 24 24">
        <path d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm6.9 6h-2.9a15.7 15.7 0 0 0-1.4-3.6A8 8 0 0 1 18.9 8ZM12 4c.8 1.2 1.5 2.5 1.9 4h-3.8c.4-1.5 1.1-2.8 1.9-4ZM4.3 14a8 8 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4H4.3Zm.8 2h2.9c.3 1.3.8 2.5 1.4 3.6A8 8 0 0 1 5.1 16ZM8 8H5.1a8 8 0 0 1 4.3-3.6C8.8 5.5 8.3 6.7 8 8Zm4 12c-.8-1.2-1.5-2.5-1.9-4h3.8c-.4 1.5-1.1 2.8-1.9 4Zm2.3-6H9.7a14.7 14.7 0 0 1 0-4h4.6a14.7 14.7 0 0 1 0 4Zm.3 5.6c.6-1.1 1.1-2.3 1.4-3.6h2.9a8 8 0 0 1-4.3 3.6Zm1.7-5.6a16.5 16.5 0 0 0 0-4h3.4a8 8 0 0 1 0 4h-3.4Z" />
      </svg>
      <select
        className="language-switcher__select"
        data-language-switcher=""
        value={language.code}
        onChange={(event) => {
          const code = event.target.value as LanguageCode;
          saveLanguageChoice(code);
          void navigate(hrefOf(code));
        }}
      >
        {languages.map((option) => (
          <option key={option.code} value={option.code} lang={option.htmlLang} data-href={hrefOf(option.code)}>
            {option.name}
          </option>
        ))}
      </select>
    </label>
  );
}
