import { Icon } from './icon';
import { useI18n } from '../i18n/i18n-context';
import { localizePath } from '../i18n/languages';

/** Page-not-found message naming the path that was asked for (spec section 8). */
export function NotFound({ path }: { path: string }) {
  const { t, language } = useI18n();
  return (
    <main id="main" className="not-found">
      <span className="feature__icon feature__icon--large">
        <Icon name="broadcast" />
      </span>
      <h1 className="not-found__title">{t('notFound.title')}</h1>
      <p className="not-found__body">{t('notFound.body', { path })}</p>
      <a className="button button--primary button--regular" href={localizePath('/', language)}>
        {t('notFound.home')}
      </a>
    </main>
  );
}
