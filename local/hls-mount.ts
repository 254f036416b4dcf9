// Stream previews in the local stack: the local RTMP test destination (nginx-rtmp) writes HLS; the origin serves
// it at /hls, so the page plays it from its own origin (no cross-origin request, the same CSP as everything else).
import { request as httpRequest } from 'node:http';
import type { Mount } from './http-server';

export function hlsMount(hlsUrl: string): Mount {
  const upstream = new URL(hlsUrl);
  return {
    prefix: '/hls',
    handle: (request, response) =>
      new Promise((resolve) => {
        const name = (request.url ?? '').slice('/hls/'.length).split('?')[0] ?? '';
        if (!/^[\w.%-]+\.(m3u8|ts)$/.test(name)) {
          response.writeHead(404).end();
          return resolve();
        }
        const proxied = httpRequest({ host: upstream.hostname, port: upstream.port, path: `${upstream.pathname}/${name}`, method: 'GET' }, (answer) => {
          response.writeHead(answer.statusCode ?? 502, {
            'content-type': answer.headers['content-type'] ?? 'application/octet-stream',
            'cache-control': 'no-cache',
          });
          answer.pipe(response).on('finish', resolve);
        });
        proxied.on('error', () => {
          if (!response.headersSent) response.writeHead(502).end();
          resolve();
        });
        proxied.end();
      }),
  };
}
