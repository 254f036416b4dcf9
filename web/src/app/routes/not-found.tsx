// Unknown paths (spec section 8). The server answers them with status 404 and the SPA shell (web/edge); this route
// then loads the path's language and names the path.
import { useLocation, type ClientLoaderFunctionArgs, type MetaArgs } from 'react-router';
import { NotFound } from '../../components/not-found';
import { PageLoading } from '../../components/page-loading';
import { languageOfPath } from '../../i18n/languages';
import { loadMessages } from '../../i18n/load-messages';
import { pageMeta } from '../page-meta';

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  return { messages: await loadMessages(languageOfPath(new URL(request.url).pathname).code) };
}

export const meta = (args: MetaArgs) => pageMeta(args, 'meta.notFoundTitle');
export const handle = { pageName: 'not-found' };

export function HydrateFallback() {
  return <PageLoading />;
}

export default function NotFoundPage() {
  return <NotFound path={useLocation().pathname} />;
}
