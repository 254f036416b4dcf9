// The tag manager (spec section 2: page views on every route change), only when a public id is configured
// (VITE_GTM_ID) and only after the visitor accepted cookies (security audit L10: it loaded before, against our own
// privacy policy). Nothing is loaded and nothing is sent otherwise.
import { hasAcceptedCookies } from '../../lib/consent-storage';

type DataLayer = Record<string, unknown>[];
declare global {
  interface Window {
    dataLayer?: DataLayer;
  }
}

export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com';

function loadTagManager(id: string): void {
  if (document.getElementById('gtm-script')) return;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.id = 'gtm-script';
  script.async = true;
  script.src = `${TAG_MANAGER_ORIGIN}/gtm.js?id=${encodeURIComponent(id)}`;
  document.head.append(script);
}

export interface PageView {
  name: string;
  path: string;
  title: string;
}

/** Reports a page view (loading the tag manager first) when an id is configured and cookies were accepted. */
export function reportPageView(tagManagerId: string | undefined, view: PageView, storage?: Pick<Storage, 'getItem'>): boolean {
  if (!tagManagerId || !hasAcceptedCookies(storage)) return false;
  loadTagManager(tagManagerId);
  window.dataLayer?.push({ event: 'page_view', page_name: view.name, page_path: view.path, page_title: view.title });
  return true;
}
