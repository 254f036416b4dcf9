// The stream task's HTTP client: Node's own http and https. All the task asks over HTTP is a small JSON exchange with
// the task API or a file streamed to the disk, and fetch would load undici, Node's second HTTP stack, on its first
// call. So would an ES import of `node:http`: its module facade reads every export, among them the lazy WebSocket
// classes that load undici (80 ms against 30 for http and https as below, in a fresh process; docs/stream-task.md).
import type { IncomingMessage } from 'node:http';

const { request: httpRequest } = process.getBuiltinModule('node:http');
const { request: httpsRequest } = process.getBuiltinModule('node:https');

export interface HttpRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  signal?: AbortSignal;
}

/** Sends the request; resolves with the response once its headers are in (its body still to read). */
export function send(url: URL, options: HttpRequest = {}): Promise<IncomingMessage> {
  const { body, signal } = options;
  const headers = { ...options.headers, ...(body ? { 'content-length': String(body.byteLength) } : {}) };
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: options.method ?? 'GET', headers, ...(signal ? { signal } : {}) },
      resolve,
    );
    request.on('error', reject);
    request.end(body);
  });
}
