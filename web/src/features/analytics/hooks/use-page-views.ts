// Page views for a tag manager (spec section 2): on every route change, with the route's name (a `pageName` in the
// route's handle) or else its path, only when a public tag-manager id is configured (VITE_GTM_ID; absent by default,
// so nothing is loaded and nothing is sent).
import { useEffect } from 'react';
import { useLocation, useMatches } from 'react-router';

const tagManagerId = import.meta.env.VITE_GTM_ID as string | undefined;

type DataLayer = Record<string, unknown>[];
declare global {
  interface Window {
    dataLayer?: DataLayer;
  }
}

function loadTagManager(id: string): void {
  if (document.getElementById('gtm-script')) return;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.id = 'gtm-script';
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`;
  document.head.append(script);
}

export function usePageViews(): void {
  const location = useLocation();
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as { pageName?: string } | undefined;
  const pageName = handle?.pageName ?? location.pathname;
  useEffect(() => {
    if (!tagManagerId) return;
    loadTagManager(tagManagerId);
    window.dataLayer?.push({ event: 'page_view', page_name: pageName, page_path: location.pathname + location.search, page_title: document.title });
  }, [location.pathname, location.search, pageName]);
}
