// The Content-Security-Policy and Permissions-Policy of the site, the same in CloudFront (lib/web-stack.ts) and the
// local server (local/static-site.ts). Scripts run only from our origin or when their exact text is one of the
// build's inline scripts: React Router's hydration bootstrap in the SPA shell and the public pages' small script are
// deterministic per build, so their SHA-256 hashes replace 'unsafe-inline' (docs/web.md explains the trade-offs).
// Every other source is named (security audit L10): any XSS could otherwise load the tag manager (a known CSP
// bypass) or send what it read to any https: host. The tag manager's hosts are there only in a build that has one.
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

/** True when the build was made with a tag manager id (VITE_GTM_ID): the public pages' script carries it. */
export function buildHasTagManager(buildDir: string): boolean {
  for (const entry of readdirSync(buildDir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.html') && /"tagManagerId":"[^"]+"/.test(readFileSync(join(entry.parentPath, entry.name), 'utf8'))) return true;
  }
  return false;
}

/**
 * The local stack's realtime server listens on its own port (LOOPCAST_REALTIME_PORT, a random one in tests) over
 * plain `ws:`; the browser learns its address at run time from GET /api/ws. Only the local server adds these.
 */
export const localRealtimeSources: readonly string[] = ['ws://localhost:*', 'ws://127.0.0.1:*'];

/** Where YouTube channel pictures (the Channels page) come from. */
const youtubeImageSources = ['https://yt3.ggpht.com', 'https://yt3.googleusercontent.com'];

/** What Google Tag Manager and the Google Analytics tags it loads need (Google's CSP guide). */
const tagManager = {
  script: ['https://www.googletagmanager.com'],
  img: ['https://www.googletagmanager.com', 'https://*.google-analytics.com'],
  connect: ['https://www.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com'],
};

export interface PolicyOptions {
  /** The build loads a tag manager (buildHasTagManager). */
  tagManager?: boolean;
  /** Where the app's WebSocket goes: the realtime API's wss:// origin in AWS, localRealtimeSources locally. */
  realtimeSources?: readonly string[];
}

export function contentSecurityPolicy(scriptHashes: readonly string[], options: PolicyOptions = {}): string {
  const gtm = options.tagManager ? tagManager : { script: [], img: [], connect: [] };
  const directive = (name: string, sources: readonly string[]) => [name, ...sources].join(' ');
  return [
    "default-src 'self'",
    directive('script-src', ["'self'", ...scriptHashes, ...gtm.script]),
    "style-src 'self'",
    directive('img-src', ["'self'", 'data:', 'blob:', ...youtubeImageSources, ...gtm.img]),
    // HLS previews play through Media Source Extensions from blob: URLs; the media itself comes from /hls.
    "media-src 'self' blob:",
    "font-src 'self'",
    directive('connect-src', ["'self'", ...(options.realtimeSources ?? []), ...gtm.connect]),
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/** Browser features no page of ours uses, off for every page and anything embedded (fullscreen stays, for the
 * preview player). */
export const permissionsPolicy = [
  'accelerometer=()', 'autoplay=(self)', 'browsing-topics=()', 'camera=()', 'display-capture=()', 'geolocation=()', 'gyroscope=()',
  'hid=()', 'magnetometer=()', 'microphone=()', 'midi=()', 'payment=()', 'serial=()', 'usb=()', 'xr-spatial-tracking=()',
].join(', ');
