import type { MetaArgs } from 'react-router';
import { ForgotPasswordForm } from '../../../features/accounts/components/forgot-password-form';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.forgotPassword.title');
export const handle = { pageName: 'auth-forgot-password' };

export default function ForgotPasswordPage() {
  const { t } = useI18n();
  return (
    <>
      <h1 className="auth-shell__title">{t('auth.forgotPassword.title')}</h1>
      <ForgotPasswordForm />
    </>
  );
}
