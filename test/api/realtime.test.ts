// The realtime channel end to end on the local stack: GET /api/ws, the WebSocket $connect authorizer, the
// connections table, and the management-API publisher, with Node's own (browser-standard) WebSocket client.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../../local/stack';
import type { RealtimeEvent } from '../../lambdas/contract/realtime-events';
import { connectionKey, connectionsOfUser } from '../../lambdas/adapters/dynamo/keys';
import { ConnectionsStore } from '../../lambdas/adapters/dynamo/connections-store';
import { api, signedInUser } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
beforeAll(async () => { stack = await startTestStack(); });
afterAll(() => stack.stop());
afterEach(() => { stack.deps.now = () => new Date(); });

interface Client { socket: WebSocket; received: RealtimeEvent[] }

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
    await expect(new Promise((resolve, reject) => { late.onopen = resolve; late.onerror = () => reject(new Error('refused')); })).rejects.toThrow('refused');
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
    await stack.deps.db.send(new PutCommand({
      TableName: stack.config.tables.app,
      Item: { ...connectionKey('ghost='), gsi1pk: connectionsOfUser(user.userId), gsi1sk: 'ghost=', userId: user.userId, expiresAt: Math.floor(Date.now() / 1000) + 600 },
    }));
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
