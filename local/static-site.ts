// Serves the built web app the way the CloudFront distribution does (lib/web-stack.ts): every request first goes
// through the distribution's CloudFront Function, evaluated from its very file (web/edge/viewer-request.js), which
// redirects (301 legal pages, 302 language), maps clean URLs to prerendered HTML and /app/* to the SPA shell; then
// the file is served like S3 does (hashed assets with a long cache, the rest revalidated), and the function's
// viewer-response step sets the status (404 for unknown pages).
import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { buildHasTagManager, contentSecurityPolicy, inlineScriptHashes, localRealtimeSources, permissionsPolicy } from '../web/edge/content-security-policy';
import { repoRoot } from './paths';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.data': 'text/x-script; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export const viewerRequestFunctionFile = join(repoRoot, 'web', 'edge', 'viewer-request.js');

interface EdgeValue {
  value: string;
  attributes?: string;
  multiValue?: EdgeValue[];
}
interface EdgeRequest {
  method: string;
  uri: string;
  querystring: Record<string, EdgeValue>;
  headers: Record<string, EdgeValue>;
  cookies: Record<string, EdgeValue>;
}
interface EdgeResponse {
  statusCode: number;
  statusDescription?: string;
  headers?: Record<string, EdgeValue>;
  cookies?: Record<string, EdgeValue>;
}
type EdgeEvent = { context: { eventType: 'viewer-request' | 'viewer-response' }; request: EdgeRequest; response?: EdgeResponse };
type EdgeFunction = (event: EdgeEvent) => EdgeRequest | EdgeResponse;

/** The CloudFront Function, compiled once from its file: a global `handler(event)`, as CloudFront runs it. */
export const edgeFunction = new Function(`${readFileSync(viewerRequestFunctionFile, 'utf8')}; return handler;`)() as EdgeFunction;

/** A Node request as the CloudFront Functions event object represents it (lower-case headers, cookies apart). */
export function edgeRequest(request: IncomingMessage): EdgeRequest {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const querystring: Record<string, EdgeValue> = {};
  for (const [name, value] of url.searchParams) {
    const existing = querystring[name];
    if (existing) existing.multiValue = [...(existing.multiValue ?? [{ value: existing.value }]), { value }];
    else querystring[name] = { value };
  }
  const headers: Record<string, EdgeValue> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name !== 'cookie' && value !== undefined) headers[name] = { value: Array.isArray(value) ? value.join(', ') : value };
  }
  const cookies: Record<string, EdgeValue> = {};
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0) cookies[pair.slice(0, at).trim()] = { value: decodeURIComponent(pair.slice(at + 1).trim()) };
  }
  return { method: request.method ?? 'GET', uri: decodeURIComponent(url.pathname), querystring, headers, cookies };
}

/** A redirect's target built from the decoded path (`/€/` → `/€`), percent-encoded again as a header must be
 * (its query string already is), as CloudFront sends it. */
function encodedLocation(location: string): string {
  const query = location.indexOf('?');
  return query < 0 ? encodeURI(location) : encodeURI(location.slice(0, query)) + location.slice(query);
}

function sendEdgeResponse(response: ServerResponse, answer: EdgeResponse): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, header] of Object.entries(answer.headers ?? {})) headers[name] = name === 'location' ? encodedLocation(header.value) : header.value;
  const cookies = Object.entries(answer.cookies ?? {}).map(([name, c]) => `${name}=${c.value}${c.attributes ? `; ${c.attributes}` : ''}`);
  if (cookies.length) headers['set-cookie'] = cookies;
  response.writeHead(answer.statusCode, answer.statusDescription ?? '', headers).end();
}

// CloudFront's response headers policy (lib/web-stack.ts), the CSP computed from the same build; locally it also
// allows the realtime server's own port.
const securityHeadersByBuild = new Map<string, Record<string, string>>();
function securityHeaders(webDir: string): Record<string, string> {
  let headers = securityHeadersByBuild.get(webDir);
  if (!headers) {
    headers = {
      'content-security-policy': contentSecurityPolicy(inlineScriptHashes(webDir), {
        tagManager: buildHasTagManager(webDir),
        realtimeSources: localRealtimeSources,
      }),
      'permissions-policy': permissionsPolicy,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin-when-cross-origin',
    };
    securityHeadersByBuild.set(webDir, headers);
  }
  return headers;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

function send(response: ServerResponse, file: string, status: number, method: string, webDir: string): void {
  const hashedAsset = file.includes(`${sep}assets${sep}`);
  response.writeHead(status, {
    ...securityHeaders(webDir),
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (method === 'HEAD') response.end();
  else createReadStream(file).pipe(response);
}

export async function serveStatic(request: IncomingMessage, response: ServerResponse, webDir: string | undefined): Promise<void> {
  const method = request.method ?? 'GET';
  if (!webDir || (method !== 'GET' && method !== 'HEAD')) {
    response.writeHead(webDir ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(webDir ? 'Method not allowed' : 'This stack serves no web app');
    return;
  }
  let viewerRequest: EdgeRequest;
  try {
    viewerRequest = edgeRequest(request);
  } catch {
    response.writeHead(400).end(); // an undecodable path (%E0%A4%A)
    return;
  }
  const answer = edgeFunction({ context: { eventType: 'viewer-request' }, request: structuredClone(viewerRequest) });
  if ('statusCode' in answer) return sendEdgeResponse(response, answer);

  const target = normalize(join(webDir, answer.uri));
  if (target !== webDir && !target.startsWith(webDir + sep)) {
    response.writeHead(400).end();
    return;
  }
  // S3 (with list permission for CloudFront) answers a missing object with 404; the function does not run then.
  if (!(await isFile(target))) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  const viewerResponse = edgeFunction({
    context: { eventType: 'viewer-response' },
    request: { ...viewerRequest, uri: answer.uri },
    response: { statusCode: 200, headers: {}, cookies: {} },
  }) as EdgeResponse;
  return send(response, target, viewerResponse.statusCode, method, webDir);
}
