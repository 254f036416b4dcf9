import { useSearchParams, type MetaArgs } from 'react-router';
import { ClosureConfirmation } from '../../../features/accounts/components/closure-confirmation';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.closeAccount.title');
export const handle = { pageName: 'auth-close-account' };

/** The link e-mailed to close the account: one more look at what happens, then the button that does it. */
export default function CloseAccountPage() {
  const { t } = useI18n();
  const [search] = useSearchParams();
  return (
    <>
      <h1 className="auth-shell__title">{t('auth.closeAccount.title')}</h1>
      <ClosureConfirmation token={search.get('token')} />
    </>
  );
}
