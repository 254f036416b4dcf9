import { useTranslation } from 'react-i18next';
import type { MetaFunction } from 'react-router';
import { i18nFor } from '../../i18n/i18n';
import { languageOfPath } from '../../i18n/languages';

export const meta: MetaFunction = ({ location }) => {
  const t = i18nFor(languageOfPath(location.pathname).code).t;
  return [{ title: t('meta.title') }, { name: 'description', content: t('meta.description') }];
};

export default function LandingPage() {
  const { t } = useTranslation();
  return (
    <main>
      <h1>{t('landing.headline')}</h1>
      <a href="/app/auth/register">{t('landing.cta')}</a>
    </main>
  );
}
