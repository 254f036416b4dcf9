import type { MetaArgs } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.resetPassword.title');
export const handle = { pageName: 'auth-reset-password' };

export default function ResetPasswordPage() {
  const { t } = useI18n();
  return <h1 className="auth-shell__title">{t('auth.resetPassword.title')}</h1>;
}
