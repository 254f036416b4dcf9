import type { MetaArgs } from 'react-router';
import { useCurrentUser } from '../../../features/accounts/api/accounts-api';
import { NotificationSettings } from '../../../features/notifications/components/notification-settings';
import '../../../features/notifications/notifications.css';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.notifications.title');
export const handle = { pageName: 'notifications' };

export default function NotificationsPage() {
  const { t } = useI18n();
  const user = useCurrentUser();
  return (
    <>
      <header className="app-page__header">
        <h1 className="app-page__title">{t('app.pages.notifications.title')}</h1>
        <p className="notifications__lead">{t('notifications.lead')}</p>
      </header>
      <NotificationSettings email={user.data?.email} />
    </>
  );
}
