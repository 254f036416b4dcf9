// The Content-Security-Policy of the site, the same in CloudFront (lib/web-stack.ts) and the local server
// (local/static-site.ts). Scripts run only from our origin or when their exact text is one of the build's inline
// scripts: React Router's hydration bootstrap in the SPA shell and the public pages' small script are
// deterministic per build, so their SHA-256 hashes replace 'unsafe-inline' (docs/web.md explains the trade-offs).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const inlineScript = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** `'sha256-…'` sources for every distinct inline script in the built HTML files under `buildDir`. */
export function inlineScriptHashes(buildDir: string): string[] {
  const hashes = new Set<string>();
  for (const entry of readdirSync(buildDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const html = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    for (const match of html.matchAll(inlineScript)) {
      if (match[1]) hashes.add(`'sha256-${createHash('sha256').update(match[1]).digest('base64')}'`);
    }
  }
  return [...hashes].sort();
}

/**
 * The local stack's realtime server listens on its own port (LOOPCAST_REALTIME_PORT, a random one in tests) over
 * plain `ws:`, which `connect-src 'self' https: wss:` refuses; the browser learns its address at run time from
 * GET /api/ws. Only the local server adds these; CloudFront's policy stays as strict as it is.
 */
export const localRealtimeSources: readonly string[] = ['ws://localhost:*', 'ws://127.0.0.1:*'];

export function contentSecurityPolicy(scriptHashes: readonly string[], extraConnectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    // The tag manager loads only when a public id is configured at build time (VITE_GTM_ID).
    `script-src 'self' ${scriptHashes.join(' ')} https://www.googletagmanager.com`.replace(/\s+/g, ' '),
    "style-src 'self'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    "font-src 'self'",
    ["connect-src 'self' https: wss:", ...extraConnectSources].join(' '),
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}
