import type { MetaArgs } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.login.title');
export const handle = { pageName: 'auth-login' };

export default function LoginPage() {
  const { t } = useI18n();
  return <h1 className="auth-shell__title">{t('auth.login.title')}</h1>;
}
