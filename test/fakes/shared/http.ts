// HTTP plumbing shared by the fakes: an in-process node:http server on a free 127.0.0.1 port, body reading and
// JSON answers. A bug inside a fake answers 500 with its message, so it shows up in the test that hit it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

export interface Listening {
  url: string;
  host: string;
  port: number;
  stop(): Promise<void>;
}

export async function listen(handler: Handler): Promise<Listening> {
  const server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      if (response.headersSent) return response.destroy();
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`fake server bug: ${message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        // SDK clients keep sockets alive; close them so the server (and jest) can exit.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // Both Stripe and Google answer pretty-printed JSON.
  const text = JSON.stringify(body, null, 2);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

export function redirect(response: ServerResponse, status: 302 | 303, location: string): void {
  response.writeHead(status, { location, 'content-length': '0' }).end();
}

export function sendText(response: ServerResponse, status: number, text: string, contentType = 'text/plain'): void {
  response.writeHead(status, { 'content-type': `${contentType}; charset=utf-8` }).end(text);
}
