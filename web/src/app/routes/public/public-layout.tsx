// The public ('default') layout: header with navigation, language switcher and sign-in, the page, footer, and the
// cookie consent banner. Its loader runs at build time and gives the page the shell's texts.
import { Outlet, type LoaderFunctionArgs } from 'react-router';
import { CookieBanner } from '../../../features/consent/components/cookie-banner';
import { useI18n } from '../../../i18n/i18n-context';
import { languageOfPath } from '../../../i18n/languages';
import { messagesFor, shellSections } from '../../../i18n/messages.server';
import { PublicFooter } from '../../layouts/public-footer';
import { pagePath } from '../../page-path';
import { PublicHeader } from '../../layouts/public-header';

export async function loader({ request }: LoaderFunctionArgs) {
  return { messages: await messagesFor(languageOfPath(pagePath(request)).code, shellSections) };
}

/** Public pages are static HTML (app/public-page-script.ts explains why). */
export const handle = { hydrate: false };

export default function PublicLayout() {
  const { t } = useI18n();
  return (
    <>
      <a href="#main" className="skip-link">
        {t('common.skipToContent')}
      </a>
      <PublicHeader />
      <main id="main">
        <Outlet />
      </main>
      <PublicFooter />
      <CookieBanner />
    </>
  );
}
