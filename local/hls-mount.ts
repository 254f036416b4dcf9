// Stream previews in the local stack: the local RTMP test destination (nginx-rtmp) writes HLS named by stream key;
// the origin serves it at /hls, so the page plays it from its own origin (no cross-origin request, the same CSP as
// everything else). The API never hands out the key (security audit L13): a preview has an opaque id, an HMAC of
// the key with a secret of this start, and the playlist is rewritten so that its segment names carry the id too.
import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Mount } from './http-server';

/** Opaque preview ids for stream keys, known to this process only. */
export class LocalPreviews {
  private readonly secret = randomBytes(32);
  private readonly keys = new Map<string, string>();

  /** The key's preview id (the same for the same key while the stack runs). */
  idFor(streamKey: string): string {
    const id = createHmac('sha256', this.secret).update(streamKey).digest('base64url').slice(0, 32);
    this.keys.set(id, streamKey);
    return id;
  }

  keyFor(id: string): string | undefined {
    return this.keys.get(id);
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function hlsMount(hlsUrl: string, previews: LocalPreviews): Mount {
  const upstream = new URL(hlsUrl);
  return {
    prefix: '/hls',
    handle: (request, response) =>
      new Promise((resolve) => {
        const name = (request.url ?? '').slice('/hls/'.length).split('?')[0] ?? '';
        // <id>.m3u8, or a segment <id>-<n>.ts (nginx-rtmp names segments <key>-<n>.ts).
        const match = /^([\w-]{32})(\.m3u8|-\d+\.ts)$/.exec(name);
        const key = match ? previews.keyFor(match[1]!) : undefined;
        if (!match || !key) {
          response.writeHead(404).end();
          return resolve();
        }
        const [, id, suffix] = match;
        const playlist = suffix === '.m3u8';
        const proxied = httpRequest(
          { host: upstream.hostname, port: upstream.port, path: `${upstream.pathname}/${encodeURIComponent(key)}${suffix}`, method: 'GET' },
          (answer) => {
            const headers = { 'content-type': answer.headers['content-type'] ?? 'application/octet-stream', 'cache-control': 'no-cache' };
            if (!playlist || answer.statusCode !== 200) {
              response.writeHead(answer.statusCode ?? 502, headers);
              answer.pipe(response).on('finish', resolve);
              return;
            }
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.on('end', () => {
              const text = Buffer.concat(chunks)
                .toString('utf8')
                .replace(new RegExp(`${escapeRegExp(key)}-(\\d+\\.ts)`, 'g'), `${id}-$1`);
              response.writeHead(200, headers).end(text);
              resolve();
            });
          },
        );
        proxied.on('error', () => {
          if (!response.headersSent) response.writeHead(502).end();
          resolve();
        });
        proxied.end();
      }),
  };
}
