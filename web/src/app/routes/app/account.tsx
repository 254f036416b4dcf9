import type { MetaArgs } from 'react-router';
import { AccountSettings } from '../../../features/accounts/components/settings/account-settings';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'app.pages.account.title');
export const handle = { pageName: 'account' };

/** The account page (issue 17, item 4): name and language, e-mail, password, devices, data, closing the account. */
export default function AccountPage() {
  const { t } = useI18n();
  return (
    <>
      <header className="app-page__header">
        <h1 className="app-page__title">{t('app.pages.account.title')}</h1>
        <p className="app-page__lead">{t('account.lead')}</p>
      </header>
      <AccountSettings />
    </>
  );
}
