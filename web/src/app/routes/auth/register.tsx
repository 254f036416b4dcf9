import type { MetaArgs } from 'react-router';
import { RegisterForm } from '../../../features/accounts/components/register-form';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.register.title');
export const handle = { pageName: 'auth-register' };

export default function RegisterPage() {
  const { t } = useI18n();
  return (
    <>
      <h1 className="auth-shell__title">{t('auth.register.title')}</h1>
      <RegisterForm />
    </>
  );
}
