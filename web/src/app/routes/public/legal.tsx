// The four English-only legal pages (/terms, /privacy, /offer, /refund-policy), one module; the text comes as page
// data from the loader, at build time.
import { useLoaderData, type LoaderFunctionArgs, type MetaArgs } from 'react-router';
import { legalDocument } from '../../../features/legal/documents.server';
import { LegalDocumentView } from '../../../features/legal/components/legal-document-view';
import { messagesFor } from '../../../i18n/messages.server';
import { pagePath } from '../../page-path';
import { isLegalPage } from '../../site-map';

export async function loader({ request }: LoaderFunctionArgs) {
  const path = pagePath(request);
  if (!isLegalPage(path)) throw new Response('Not Found', { status: 404 });
  return { document: legalDocument(path), messages: await messagesFor('en', ['legal']) };
}

export const meta = ({ loaderData }: MetaArgs<typeof loader>) => [
  { title: `${loaderData?.document.title ?? 'Legal'} · Loopcast` },
  { name: 'description', content: loaderData?.document.intro ?? '' },
];

export default function LegalPage() {
  const { document, messages } = useLoaderData<typeof loader>();
  return <LegalDocumentView document={document} englishOnlyNote={messages.legal?.englishOnly ?? ''} />;
}
