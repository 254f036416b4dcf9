import { useSearchParams, type MetaArgs } from 'react-router';
import { EmailChangeConfirmation } from '../../../features/accounts/components/email-change-confirmation';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.changeEmail.title');
export const handle = { pageName: 'auth-change-email' };

/** The link e-mailed to a new address: the account moves to it. */
export default function ChangeEmailPage() {
  const { t } = useI18n();
  const [search] = useSearchParams();
  return (
    <>
      <h1 className="auth-shell__title">{t('auth.changeEmail.title')}</h1>
      <EmailChangeConfirmation token={search.get('token')} />
    </>
  );
}
