// The local stack's single HTTP origin, like CloudFront in AWS: `/api/*` goes to the same Lambda handlers
// through the API Gateway stand-in, everything else to the built web app. Without `originVerify` the same server
// stands in for the API's own endpoint (execute-api), reachable without CloudFront.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../lambdas/wiring/deps';
import { logger } from '../lambdas/adapters/logger';
import { API_BASE } from '../lambdas/contract/routes';
import { errorCatalogue, type ErrorKey } from '../lambdas/core/errors';
import { httpGroups } from '../lambdas/http/groups';
import type { HttpHandler } from '../lambdas/http/handler';
import {
  buildEvent,
  closeAfterResponse,
  lambdaContext,
  MalformedPathError,
  matchRoute,
  MAX_PAYLOAD_BYTES,
  passThroughEdge,
  readBody,
  writeResult,
  type RouteMatch,
} from './api-gateway';
import { PortInUseError } from './ports';
import { serveStatic } from './static-site';
import { functionDeps } from './table-access';
import type { HandlerGroup } from '../lambdas/contract/routes';

/** Something mounted beside the route table under its own prefix (the tus upload handler). */
export interface Mount {
  prefix: string;
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

export interface HttpOriginOptions {
  port: number;
  deps: Deps;
  /** Built web app to serve; none in API-only test stacks. */
  webDir?: string;
  mounts?: Mount[];
  /** Play CloudFront for `/api` requests: set `x-viewer-address` (the peer) and `x-origin-verify` (this value),
   * overwriting what the client sent. Without it, headers reach the handlers as the client sent them. */
  originVerify?: string;
}

export interface HttpOrigin {
  url: string;
  port: number;
  server: Server;
  stop(): Promise<void>;
}

function sendError(response: ServerResponse, key: ErrorKey): void {
  const { status, message } = errorCatalogue[key];
  const body = JSON.stringify({ error: key, message });
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

export async function startHttpOrigin(options: HttpOriginOptions): Promise<HttpOrigin> {
  const handlers = new Map<string, HttpHandler>(
    Object.entries(httpGroups).map(([group, create]) => {
      const deps = functionDeps(options.deps, group as HandlerGroup);
      return [group, create(() => deps)];
    }),
  );

  async function handleApi(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const body = await readBody(request, MAX_PAYLOAD_BYTES);
    if (!body) {
      closeAfterResponse(request, response);
      return sendError(response, 'payload too large');
    }
    let match: RouteMatch | undefined;
    try {
      match = matchRoute(request.method ?? 'GET', path);
    } catch (error) {
      if (error instanceof MalformedPathError) return sendError(response, 'invalid request');
      throw error;
    }
    // Unmatched requests go to the system group's $default route, as in AWS, which answers 'route not found'.
    const group = match?.group ?? 'system';
    const event = buildEvent(request, body, match);
    const result = await handlers.get(group)!(event, lambdaContext(`loopcast-local-${group}`, event.requestContext.requestId));
    writeResult(response, result);
  }

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const mount = options.mounts?.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
    const isApi = path === API_BASE || path.startsWith(`${API_BASE}/`);
    if (isApi && options.originVerify) passThroughEdge(request, options.originVerify);
    const work = mount ? mount.handle(request, response) : isApi ? handleApi(request, response, path) : serveStatic(request, response, options.webDir);
    work.catch((error: unknown) => {
      logger.error('local origin failed', { path, error: error as Error, id: randomUUID() });
      if (!response.headersSent) sendError(response, 'internal error');
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.port, 'web app and API', 'LOOPCAST_PORT') : error),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}`,
    port,
    server,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
