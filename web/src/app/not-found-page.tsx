import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <main>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body', { path: pathname })}</p>
    </main>
  );
}
