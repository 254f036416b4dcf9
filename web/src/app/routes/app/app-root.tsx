// The root of /app in each language: the route guard on every navigation (app/guard.ts, spec section 6), the
// language's whole catalogue (loaded once, client-side), and the data-fetch cache for the app's features.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Outlet, redirect, type ClientLoaderFunctionArgs } from 'react-router';
import { PageLoading } from '../../../components/page-loading';
import { withReturnPath } from '../../../features/accounts/return-path';
import { languageOfPath } from '../../../i18n/languages';
import { loadMessages } from '../../../i18n/load-messages';
import { isSignedIn } from '../../../lib/session';
import { guardRedirect } from '../../guard';

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const url = new URL(request.url);
  const { pathname } = url;
  const target = guardRedirect(pathname, isSignedIn());
  // Sent to the login page from an app page: back there after signing in.
  if (target) throw redirect(withReturnPath(target, url));
  return { messages: await loadMessages(languageOfPath(pathname).code) };
}

/** The guard must see every navigation inside /app, also between pages whose own loaders would not run. */
export const shouldRevalidate = () => true;

export function HydrateFallback() {
  return <PageLoading />;
}

// Spec section 9: 5-minute garbage collection, 3 retries with exponential backoff up to 30 s.
const newQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { gcTime: 5 * 60_000, retry: 3, retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000) } },
  });

export default function AppRoot() {
  const [queryClient] = useState(newQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
