import { useSearchParams, type MetaArgs } from 'react-router';
import { REASON_PARAM } from '../../../features/accounts/auth-error';
import { AuthErrorNotice } from '../../../features/accounts/components/auth-error-notice';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.error.title');
export const handle = { pageName: 'auth-error' };

/** `?reason=<error catalogue key>`: a sign-in step that could not finish (a sign-in link without its token, ...). */
export default function AuthErrorPage() {
  const { t } = useI18n();
  const [search] = useSearchParams();
  return (
    <>
      <h1 className="auth-shell__title">{t('auth.error.title')}</h1>
      <AuthErrorNotice reason={search.get(REASON_PARAM)} />
    </>
  );
}
