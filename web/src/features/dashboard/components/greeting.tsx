import { useI18n } from '../../../i18n/i18n-context';
import './dashboard.css';

/** The dashboard's heading: the user's display name once it is known. */
export function Greeting({ displayName }: { displayName: string | undefined }) {
  const { t } = useI18n();
  return (
    <header className="app-page__header">
      <h1 className="app-page__title">{displayName ? t('dashboard.greeting', { name: displayName }) : t('app.pages.dashboard.title')}</h1>
      <p className="dashboard__lead">{t('dashboard.lead')}</p>
    </header>
  );
}
