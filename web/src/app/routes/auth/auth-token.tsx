import type { MetaArgs } from 'react-router';
import { useI18n } from '../../../i18n/i18n-context';
import { titledMeta } from '../../page-meta';

export const meta = (args: MetaArgs) => titledMeta(args, 'auth.authToken.title');
export const handle = { pageName: 'auth-auth-token' };

export default function AuthTokenPage() {
  const { t } = useI18n();
  return <h1 className="auth-shell__title">{t('auth.authToken.title')}</h1>;
}
