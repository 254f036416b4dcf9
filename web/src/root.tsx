import { useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, UNSAFE_FrameworkContext, useLocation, useMatches } from 'react-router';
import { englishErrorScreen, ErrorScreen } from './components/error-screen';
import { NotFound } from './components/not-found';
import { PageLoading } from './components/page-loading';
import { showToast } from './components/toasts/toast-store';
import { Toaster } from './components/toasts/toaster';
import { usePageViews } from './features/analytics/hooks/use-page-views';
import { useOutdatedBuild } from './features/updates/hooks/use-outdated-build';
import { isChunkLoadError, reloadPageAfterChunkError } from './app/chunk-reload';
import { messagesOfMatches } from './app/page-meta';
import { publicPageScript } from './app/public-page-script';
import { STARTUP_ERROR_ID, startupGuardScript } from './app/startup-guard-script';
import { I18nextProvider } from 'react-i18next';
import { useI18n } from './i18n/i18n-context';
import { i18nForPage } from './i18n/i18n';
import { languageOfPath, type Language } from './i18n/languages';
import './styles/app.css';

/**
 * Routes whose handle says `hydrate: false` (the public pages) ship as static HTML with one small inline script.
 * The SPA shell is rendered at build time for `/` too (React Router's "SPA mode" render): it always hydrates.
 */
function useHydration(): boolean {
  const matches = useMatches();
  const spaShell = useContext(UNSAFE_FrameworkContext)?.isSpaMode ?? false;
  return spaShell || matches.every((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate !== false);
}
/** The route's name for page views (spec section 2: the route name or a meta value). */
const usePageName = () => (useMatches().at(-1)?.handle as { pageName?: string } | undefined)?.pageName;

export function Layout({ children }: { children: ReactNode }) {
  const language = languageOfPath(useLocation().pathname);
  const hydrate = useHydration();
  const pageName = usePageName();
  return (
    <html lang={language.htmlLang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f1023" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {pageName && <meta name="loopcast-page" content={pageName} />}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {hydrate ? (
          <>
            <script dangerouslySetInnerHTML={{ __html: startupGuardScript }} />
            <ScrollRestoration />
            <Scripts />
          </>
        ) : (
          <script dangerouslySetInnerHTML={{ __html: publicPageScript }} />
        )}
      </body>
    </html>
  );
}

/**
 * The SPA shell is prerendered once, in English, and hydration leaves the `<html lang>` it was served with (React
 * does not patch attributes that differ while hydrating): the client sets the page's language itself, and again
 * whenever a navigation changes it.
 */
function useDocumentLanguage(language: Language): void {
  useEffect(() => {
    document.documentElement.lang = language.htmlLang;
  }, [language.htmlLang]);
}

/** The i18next instance of the current page, over the texts its routes' loaders brought. */
function usePageI18n(language: Language) {
  const matches = useMatches();
  return useMemo(() => i18nForPage(language, messagesOfMatches(matches)), [language, matches]);
}

function AppServices() {
  const { t } = useI18n();
  usePageViews();
  const offerReload = useCallback(
    () => showToast({ message: t('update.available'), durationMs: Infinity, action: { label: t('update.reload'), onClick: () => window.location.reload() } }),
    [t],
  );
  useOutdatedBuild(offerReload);
  useEffect(() => {
    // Vite reports a failed preload of a code-split chunk here (a deploy replaced the files): reload, rate-limited.
    const onPreloadError = (event: Event) => {
      if (reloadPageAfterChunkError()) event.preventDefault();
    };
    window.addEventListener('vite:preloadError', onPreloadError);
    return () => window.removeEventListener('vite:preloadError', onPreloadError);
  }, []);
  return <Toaster dismissLabel={t('common.dismiss')} />;
}

export default function App() {
  const language = languageOfPath(useLocation().pathname);
  const i18n = usePageI18n(language);
  useDocumentLanguage(language);
  return (
    <I18nextProvider i18n={i18n}>
      <Outlet />
      <AppServices />
    </I18nextProvider>
  );
}

/** The SPA shell's first paint: a spinner, and the error screen kept hidden for a start-up that cannot load. */
export function HydrateFallback() {
  return (
    <>
      <PageLoading />
      <div id={STARTUP_ERROR_ID} hidden>
        <ErrorScreen />
      </div>
    </>
  );
}

/** The error screen's texts when they were loaded, else the English originals (components/error-screen.tsx). */
const errorScreenTexts = (i18n: ReturnType<typeof i18nForPage>) =>
  i18n.exists('errorScreen.line')
    ? { heading: i18n.t('errorScreen.heading'), line: i18n.t('errorScreen.line'), home: i18n.t('errorScreen.home') }
    : englishErrorScreen;

export function ErrorBoundary({ error }: { error: unknown }) {
  const { pathname } = useLocation();
  const language = languageOfPath(pathname);
  const i18n = usePageI18n(language);
  useDocumentLanguage(language);
  useEffect(() => {
    if (isChunkLoadError(error)) reloadPageAfterChunkError();
    else console.error(error);
  }, [error]);
  return (
    <I18nextProvider i18n={i18n}>
      {isRouteErrorResponse(error) && error.status === 404 ? <NotFound path={pathname} /> : <ErrorScreen texts={errorScreenTexts(i18n)} />}
    </I18nextProvider>
  );
}
