// Serves the built web app the way the CloudFront distribution does (lib/web-stack.ts): prerendered public pages
// as real HTML, hashed assets with a long cache, the SPA shell for /app/* only, and a real 404 elsewhere.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

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

/** The SPA shell React Router writes for client-rendered routes. */
export const SPA_FALLBACK = '__spa-fallback.html';

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

function send(response: ServerResponse, file: string, status: number, method: string): void {
  const hashedAsset = file.includes(`${sep}assets${sep}`);
  response.writeHead(status, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
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
  const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
  const target = normalize(join(webDir, path));
  if (target !== webDir && !target.startsWith(webDir + sep)) {
    response.writeHead(400).end();
    return;
  }
  for (const candidate of [target, join(target, 'index.html')]) {
    if (await isFile(candidate)) return send(response, candidate, 200, method);
  }
  const isAppRoute = path === '/app' || path.startsWith('/app/');
  const fallback = join(webDir, SPA_FALLBACK);
  if (isAppRoute && (await isFile(fallback))) return send(response, fallback, 200, method);
  // Unknown public path: real 404 status, with the app shell so the browser still shows the not-found page.
  return send(response, (await isFile(fallback)) ? fallback : join(webDir, 'index.html'), 404, method);
}
