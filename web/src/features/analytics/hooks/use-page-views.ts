// Page views for a tag manager (spec section 2): on every route change, with the route's name (a `pageName` in the
// route's handle) or else its path, through tag-manager.ts (only with a configured id and accepted cookies).
import { useEffect } from 'react';
import { useLocation, useMatches } from 'react-router';
import { reportPageView } from '../tag-manager';

const tagManagerId = import.meta.env.VITE_GTM_ID as string | undefined;

export function usePageViews(): void {
  const location = useLocation();
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as { pageName?: string } | undefined;
  const pageName = handle?.pageName ?? location.pathname;
  useEffect(() => {
    reportPageView(tagManagerId, { name: pageName, path: location.pathname + location.search, title: document.title });
  }, [location.pathname, location.search, pageName]);
}
