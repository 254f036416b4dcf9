// The local stand-in for API Gateway's WebSocket API: a `ws` server that runs the same $connect authorizer and
// connection handlers as AWS, and serves the WebSocket management API's wire protocol
// (POST/GET/DELETE /@connections/{id}) so the same ManagementApiPublisher delivers events locally. As in AWS, the
// management API takes only requests signed (SigV4, for execute-api) with the stack's credentials, as the other
// stand-ins do (stand-in-access.ts); it also listens on its own loopback port, below a random path per start, and
// the browsers' WebSocket port answers nothing but WebSocket upgrades (security audit L6).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Deps } from '../lambdas/wiring/deps';
import { createRealtimeAuthorizer } from '../lambdas/realtime/authorizer';
import { createConnectionsHandler, type WebSocketEvent } from '../lambdas/realtime/connections';
import { closeAfterResponse, readBody } from './api-gateway';
import { PortInUseError } from './ports';
import { checkSignatureV4, isLoopbackHost } from './stand-in-access';
import { functionDepsLater } from './table-access';
import type { LocalCredentials } from '../lambdas/contract/local-credentials';

export interface RealtimeServer {
  /** What browsers connect to (ws://...). */
  url: string;
  /** The management API endpoint for publishers (http://127.0.0.1:<its own port>/<random path>). */
  managementUrl: string;
  /** Open sockets, by API Gateway-style connection id. */
  connections: Map<string, WebSocket>;
  stop(): Promise<void>;
}

const API_ID = 'local';
const STAGE = 'local';

function requestContext(request: IncomingMessage, connectionId: string, routeKey: string, eventType: 'CONNECT' | 'DISCONNECT') {
  const now = Date.now();
  return {
    routeKey,
    eventType,
    messageDirection: 'IN' as const,
    connectionId,
    connectedAt: now,
    requestId: randomUUID(),
    extendedRequestId: randomUUID(),
    requestTime: new Date(now).toUTCString(),
    requestTimeEpoch: now,
    stage: STAGE,
    apiId: API_ID,
    domainName: request.headers.host ?? 'localhost',
    identity: { sourceIp: request.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1', userAgent: request.headers['user-agent'] ?? '' },
  };
}

function refuse(socket: Socket, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** `credentials`: the only ones the management API takes (the stack's, local/credentials.ts). */
export async function startRealtimeServer(options: { port: number; deps: () => Deps; credentials: LocalCredentials }): Promise<RealtimeServer> {
  const authorizer = createRealtimeAuthorizer(functionDepsLater(options.deps, 'realtime-authorizer'));
  const connectionsHandler = createConnectionsHandler(functionDepsLater(options.deps, 'realtime-connections'));
  const connections = new Map<string, WebSocket>();
  const sockets = new WebSocketServer({ noServer: true });

  // Publishers know it from the stack's config; nothing else does.
  const managementPath = `/${randomBytes(24).toString('base64url')}`;

  const answer = (response: ServerResponse, status: number, errorType: string, message: string): void =>
    void response.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': errorType }).end(JSON.stringify({ message }));

  async function management(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = request.url ?? '';
    const match = url.startsWith(`${managementPath}/`) ? /^\/@connections\/([^/?]+)/.exec(url.slice(managementPath.length)) : null;
    if (!match) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    const body = request.method === 'POST' ? await readBody(request, 128 * 1024) : Buffer.alloc(0);
    if (!body) {
      closeAfterResponse(request, response);
      return answer(response, 413, 'PayloadTooLargeException', 'Payload too large');
    }
    const signed = isLoopbackHost(request.headers.host)
      ? checkSignatureV4({ method: request.method ?? '', url, headers: request.headers }, options.credentials, {
          payloadHash: createHash('sha256').update(body).digest('hex'),
          uriEscapePath: true,
        })
      : ({ ok: false, message: 'The local management API answers loopback host names only' } as const);
    if (!signed.ok) return answer(response, 403, 'ForbiddenException', signed.message);
    const socket = connections.get(decodeURIComponent(match[1]!));
    if (!socket) return answer(response, 410, 'GoneException', 'Gone');
    if (request.method === 'POST') {
      socket.send(body.toString('utf8'));
      response.writeHead(200).end();
    } else if (request.method === 'DELETE') {
      socket.close(1000);
      response.writeHead(204).end();
    } else {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ connectedAt: new Date().toISOString() }));
    }
  }

  async function upgrade(request: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const connectionId = randomBytes(12).toString('base64');
    const context = requestContext(request, connectionId, '$connect', 'CONNECT');
    const query = Object.fromEntries(url.searchParams);
    const authorization = await authorizer({
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:local:000000000000:${API_ID}/${STAGE}/$connect`,
      resource: '$connect',
      path: url.pathname,
      httpMethod: 'GET',
      headers: request.headers as Record<string, string>,
      multiValueHeaders: {},
      pathParameters: null,
      queryStringParameters: query,
      multiValueQueryStringParameters: null,
      stageVariables: null,
      requestContext: context,
    } as unknown as APIGatewayRequestAuthorizerEvent);
    const allowed = authorization.policyDocument.Statement.every((s) => s.Effect === 'Allow');
    // API Gateway answers 403 when the authorizer denies.
    if (!allowed) return refuse(socket, 403, 'Forbidden');

    const connectEvent = {
      requestContext: { ...context, authorizer: authorization.context },
      headers: request.headers,
      queryStringParameters: query,
      isBase64Encoded: false,
    };
    const connected = await connectionsHandler(connectEvent as unknown as WebSocketEvent);
    if (typeof connected === 'object' && connected.statusCode !== 200) return refuse(socket, connected.statusCode ?? 500, 'Refused');

    sockets.handleUpgrade(request, socket, head, (ws) => {
      connections.set(connectionId, ws);
      ws.on('close', (code, reason) => {
        connections.delete(connectionId);
        const disconnect = {
          requestContext: {
            ...requestContext(request, connectionId, '$disconnect', 'DISCONNECT'),
            disconnectStatusCode: code,
            disconnectReason: reason.toString(),
          },
          isBase64Encoded: false,
        };
        void connectionsHandler(disconnect as unknown as WebSocketEvent).catch(() => undefined);
      });
    });
  }

  // The browsers' port: WebSocket upgrades only.
  const server: Server = createServer((_request, response) => {
    response.writeHead(426, { upgrade: 'websocket', 'content-type': 'text/plain; charset=utf-8' }).end('WebSocket only');
  });
  const managementServer: Server = createServer((request, response) => {
    management(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    upgrade(request, socket, head).catch(() => refuse(socket, 500, 'Internal Server Error'));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.port, 'realtime WebSocket', 'LOOPCAST_REALTIME_PORT') : error),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    managementServer.once('error', reject);
    managementServer.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const closeServer = (closing: Server) =>
    new Promise<void>((resolve) => {
      closing.closeAllConnections();
      closing.close(() => resolve());
    });
  return {
    url: `ws://localhost:${port}`,
    managementUrl: `http://127.0.0.1:${(managementServer.address() as AddressInfo).port}${managementPath}`,
    connections,
    stop: async () => {
      for (const ws of connections.values()) ws.terminate();
      sockets.close();
      await Promise.all([closeServer(server), closeServer(managementServer)]);
    },
  };
}
