// The realtime channel end to end on the local stack: GET /api/ws, the WebSocket $connect authorizer, the
// connections table, and the management-API publisher, with Node's own (browser-standard) WebSocket client.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../../local/stack';
import type { RealtimeEvent } from '../../lambdas/contract/realtime-events';
import { connectionKey, connectionsOfUser } from '../../lambdas/adapters/dynamo/keys';
import { ConnectionsStore } from '../../lambdas/adapters/dynamo/connections-store';
import { supportContext } from '../../lambdas/wiring/support';
import { suspendUser } from '../../lambdas/core/support/support';
import { api, mailsTo, signedInUser, strongPassword, tokenOf } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';
import { requiredLocalCredentials } from '../../lambdas/contract/local-credentials';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());
afterEach(() => {
  stack.deps.now = () => new Date();
});

interface Client {
  socket: WebSocket;
  received: RealtimeEvent[];
}

async function connect(sessionToken: string, tamper = (t: string) => t): Promise<Client> {
  const { body } = await api(stack, 'GET', '/ws', { token: sessionToken });
  const socket = new WebSocket(`${body.url}?token=${encodeURIComponent(tamper(body.token))}`);
  const received: RealtimeEvent[] = [];
  socket.addEventListener('message', (message) => received.push(JSON.parse(String(message.data))));
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('refused')), { once: true });
  });
  return { socket, received };
}

const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const event: RealtimeEvent = { type: 'video.progress', videoId: 'v1', percent: 42 };

describe('realtime', () => {
  test('GET /api/ws gives a short-lived token and the WebSocket URL, never the session token', async () => {
    const user = await signedInUser(stack);
    expect((await api(stack, 'GET', '/ws')).status).toBe(401);
    const { status, body } = await api(stack, 'GET', '/ws', { token: user.token });
    expect(status).toBe(200);
    expect(body.url).toBe(stack.urls.realtime);
    expect(body.token).not.toContain(user.token);
  });

  test('events reach every tab of their user and no one else', async () => {
    const ana = await signedInUser(stack, 'ana');
    const bob = await signedInUser(stack, 'bob');
    const anaTabs = await Promise.all([connect(ana.token), connect(ana.token), connect(ana.token)]);
    const bobTab = await connect(bob.token);
    await stack.deps.realtime.publish(ana.userId, event);
    await until(() => anaTabs.every((tab) => tab.received.length === 1), 'all three tabs');
    for (const tab of anaTabs) expect(tab.received).toEqual([event]);
    await new Promise((r) => setTimeout(r, 100));
    expect(bobTab.received).toEqual([]);
    for (const client of [...anaTabs, bobTab]) client.socket.close();
  });

  test('tampered and expired tokens are refused at connect', async () => {
    const user = await signedInUser(stack);
    await expect(connect(user.token, (t) => `${t.slice(0, -2)}xx`)).rejects.toThrow('refused');
    await expect(connect(user.token, (t) => t.split('.')[0]!)).rejects.toThrow('refused');
    const { body } = await api(stack, 'GET', '/ws', { token: user.token });
    stack.deps.now = () => new Date(Date.now() + 6 * 60_000);
    const late = new WebSocket(`${body.url}?token=${encodeURIComponent(body.token)}`);
    await expect(
      new Promise((resolve, reject) => {
        late.onopen = resolve;
        late.onerror = () => reject(new Error('refused'));
      }),
    ).rejects.toThrow('refused');
  });

  test('a closed connection is removed, and a connection that is gone is dropped on publish', async () => {
    const user = await signedInUser(stack);
    const store = new ConnectionsStore(stack.deps.db, stack.config.tables.app);
    const client = await connect(user.token);
    expect(await store.ofUser(user.userId, new Date())).toHaveLength(1);
    client.socket.close();
    for (let i = 0; i < 50 && (await store.ofUser(user.userId, new Date())).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await store.ofUser(user.userId, new Date())).toEqual([]);

    // A connection API Gateway no longer knows (the browser vanished without $disconnect).
    await stack.deps.db.send(
      new PutCommand({
        TableName: stack.config.tables.app,
        Item: {
          ...connectionKey('ghost='),
          gsi1pk: connectionsOfUser(user.userId),
          gsi1sk: 'ghost=',
          userId: user.userId,
          expiresAt: Math.floor(Date.now() / 1000) + 600,
        },
      }),
    );
    await stack.deps.realtime.publish(user.userId, event);
    const { Item } = await stack.deps.db.send(new GetCommand({ TableName: stack.config.tables.app, Key: connectionKey('ghost=') }));
    expect(Item).toBeUndefined();
  });

  test('200 concurrent connections all receive a broadcast', async () => {
    const user = await signedInUser(stack);
    const clients = await Promise.all(Array.from({ length: 200 }, () => connect(user.token)));
    await stack.deps.realtime.publish(user.userId, event);
    await until(() => clients.every((c) => c.received.length === 1), 'all 200 connections');
    for (const client of clients) client.socket.close();
  }, 60_000);
});

// Security audit L5: a realtime token still connected after sign-out, a password reset and a suspension, and open
// sockets stayed open. L6: the local management API (POST/DELETE /@connections/{id}) answered on the browsers' port.
describe('realtime access ends with the session', () => {
  const closed = (client: Client) =>
    new Promise<void>((resolve) => {
      if (client.socket.readyState === WebSocket.CLOSED) return resolve();
      client.socket.addEventListener('close', () => resolve(), { once: true });
    });
  const ticketOf = async (sessionToken: string) => (await api(stack, 'GET', '/ws', { token: sessionToken })).body as { url: string; token: string };
  const refusedAtConnect = (ticket: { url: string; token: string }) =>
    new Promise<string>((resolve) => {
      const socket = new WebSocket(`${ticket.url}?token=${encodeURIComponent(ticket.token)}`);
      socket.onopen = () => {
        socket.close();
        resolve('opened');
      };
      socket.onerror = () => resolve('refused');
    });

  test('sign-out closes the sockets of that session only, and its unused tickets stop working', async () => {
    const user = await signedInUser(stack, 'signout');
    const other = await api(stack, 'POST', '/login', { body: { email: user.email, password: strongPassword } });
    const [tab, otherTab] = await Promise.all([connect(user.token), connect(other.body.token)]);
    const spare = await ticketOf(user.token);
    expect((await api(stack, 'POST', '/logout', { token: user.token })).status).toBe(204);
    await closed(tab);
    expect(await refusedAtConnect(spare)).toBe('refused');
    expect(otherTab.socket.readyState).toBe(WebSocket.OPEN);
    otherTab.socket.close();
  });

  test('a password reset closes every socket of the account and refuses its tickets', async () => {
    const user = await signedInUser(stack, 'reset');
    const tabs = await Promise.all([connect(user.token), connect(user.token)]);
    const spare = await ticketOf(user.token);
    await api(stack, 'POST', '/forgot-password', { body: { email: user.email } });
    const link = tokenOf((await mailsTo(stack, user.email)).at(-1));
    expect((await api(stack, 'POST', '/reset-password', { body: { token: link, password: 'a brand new passphrase' } })).status).toBe(200);
    await Promise.all(tabs.map(closed));
    expect(await refusedAtConnect(spare)).toBe('refused');
  });

  test('a suspension closes every socket of the account and refuses its tickets', async () => {
    const user = await signedInUser(stack, 'suspended');
    const tab = await connect(user.token);
    const spare = await ticketOf(user.token);
    const context = await supportContext(stack.deps, { operator: { name: 'test-operator', credentials: 'local' } });
    await suspendUser(context, user.email, 'abuse');
    await closed(tab);
    expect(await refusedAtConnect(spare)).toBe('refused');
  });

  test("the browsers' port answers WebSocket upgrades only: the management API is elsewhere, below a random path, and signed", async () => {
    const user = await signedInUser(stack, 'management');
    const tab = await connect(user.token);
    const store = new ConnectionsStore(stack.deps.db, stack.config.tables.app);
    const [connectionId] = await store.ofUser(user.userId, new Date());
    const browserPort = stack.urls.realtime.replace(/^ws/, 'http');
    for (const method of ['POST', 'DELETE', 'GET']) {
      const answer = await fetch(`${browserPort}/@connections/${encodeURIComponent(connectionId!)}`, {
        method,
        ...(method === 'POST' ? { body: '{"forged":true}' } : {}),
      });
      expect(answer.status).toBe(426);
    }
    const management = new URL(stack.config.realtime.managementUrl);
    expect(management.port).not.toBe(new URL(browserPort).port);
    const guessed = await fetch(`${management.origin}/@connections/${encodeURIComponent(connectionId!)}`, { method: 'DELETE' });
    expect(guessed.status).toBe(404);
    // With the path, as in AWS: only requests signed with the stack's credentials (the publisher's and the closer's).
    const atPath = `${stack.config.realtime.managementUrl}/@connections/${encodeURIComponent(connectionId!)}`;
    const unsigned = await fetch(atPath, { method: 'POST', body: '{"forged":true}' });
    expect({ status: unsigned.status, type: unsigned.headers.get('x-amzn-errortype') }).toEqual({ status: 403, type: 'ForbiddenException' });
    // Everything right but the signature: the credential scope's date is the request's (a fixed one failed the next day).
    const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const forged = await fetch(atPath, {
      method: 'POST',
      body: '{"forged":true}',
      headers: {
        'x-amz-date': amzDate,
        authorization: `AWS4-HMAC-SHA256 Credential=${requiredLocalCredentials(process.env).accessKeyId}/${amzDate.slice(0, 8)}/us-east-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`,
      },
    });
    expect({ status: forged.status, message: ((await forged.json()) as { message: string }).message }).toMatchObject({
      status: 403,
      message: expect.stringMatching(/signature/i),
    });
    expect(tab.socket.readyState).toBe(WebSocket.OPEN);
    expect(tab.received).toEqual([]);
    tab.socket.close();
  });
});
