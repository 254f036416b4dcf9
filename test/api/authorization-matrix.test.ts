// The authorization matrix, generated from the route table (lambdas/contract/routes.ts): every route called by
// anyone (no session), by another signed-in user naming the owner's resources, and by their owner; plus the tus
// upload endpoint, the signed media URLs and the realtime WebSocket, and every route through the API's own
// endpoint without CloudFront. Anonymous callers get 401 on every session route; the other user gets the catalogued
// "not found" for every resource of the owner and never sees anything of the owner's in any answer; the owner gets
// the route's own answer. A route added to the table without a sample request fails this file.
import { isErrorKey, errorCatalogue } from '../../lambdas/core/errors';
import { routeKeyOf, routes, type RouteDefinition } from '../../lambdas/contract/routes';
import type { RealtimeEvent } from '../../lambdas/contract/realtime-events';
import type { LocalStack } from '../../local/stack';
import { api, signedInUser, strongPassword } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem } from '../helpers/media';
import { pngBytes, routesWithoutSample, sampleRequest, send, type Answer, type World } from '../helpers/route-samples';
import { startTestStack } from '../helpers/stack';

type User = { email: string; token: string; userId: string };
let stack: LocalStack;
let owner: User;
let other: User;
let world: World;
let thumbnailUrl: string;
let streamThumbnailUrl: string;

beforeAll(async () => {
  stack = await startTestStack();
  [owner, other] = [await signedInUser(stack, 'owner'), await signedInUser(stack, 'other')];
  const videoId = await uploadWithTus(stack, owner.token, (await makeClip({ seconds: 2 })).bytes);
  const video = await waitForItem(stack, owner.token, videoId);
  thumbnailUrl = video.thumbnailUrl;
  const channel = await api(stack, 'POST', '/channels/rtmp', {
    token: owner.token,
    body: { name: 'Owner destination', url: 'rtmp://127.0.0.1:1935/live', key: 'owner-key-0123456789' },
  });
  // No destination: starting it stops at a catalogued refusal, after authorization, without launching anything.
  const stream = await api(stack, 'POST', '/streams', { token: owner.token, body: { title: 'Owner loop', videoId } });
  const withThumbnail = await send(
    stack.urls.api,
    'PUT',
    { path: `/streams/${stream.body.id}/thumbnail`, raw: { bytes: pngBytes, contentType: 'image/png' } },
    { token: owner.token },
  );
  streamThumbnailUrl = withThumbnail.body.thumbnailUrl;
  world = { email: owner.email, userId: owner.userId, videoId, streamId: stream.body.id, channelId: channel.body.id };
}, 120_000);
afterAll(() => stack.stop());

/** Nothing of the owner's (ids, address) appears in an answer to someone else. */
function expectNothingOfTheOwner(answer: Answer, what: string): void {
  const secrets = [owner.userId, owner.email, world.videoId, world.streamId, world.channelId];
  const found = secrets.filter((secret) => answer.text.includes(secret) || (answer.headers.get('location') ?? '').includes(secret));
  expect({ what, found }).toEqual({ what, found: [] });
}

/** A refusal is `{ error, message }` with a catalogued key and the catalogue's status. */
function expectCatalogued(answer: Answer, what: string): void {
  if (answer.status < 400) return;
  const key = answer.body?.error;
  expect({ what, catalogued: isErrorKey(key), status: isErrorKey(key) ? errorCatalogue[key].status : undefined }).toEqual({
    what,
    catalogued: true,
    status: answer.status,
  });
}

// What each caller gets, by route key: [status, error key when refused]. Anonymous callers get 401 on session routes.
type Expected = [number, string?];
const publicAnswers: Record<string, Expected> = {
  'GET /api/health': [200],
  'POST /api/register': [202],
  'POST /api/confirm': [400, 'invalid token'],
  'POST /api/confirm/resend': [202],
  'POST /api/login': [401, 'invalid credentials'],
  'POST /api/forgot-password': [202],
  'POST /api/reset-password': [400, 'invalid token'],
  'GET /api/plans': [200],
  'POST /api/billing/webhook': [503, 'payment provider missing configuration'],
  // Without a valid signature a picture is not found, whoever asks (signed URLs: their own test below).
  'GET /api/media/{id}/thumbnail': [404, 'not found'],
  'GET /api/media/{id}/preview': [404, 'not found'],
  'GET /api/media/{id}/stream-thumbnail': [404, 'not found'],
  'GET /api/channels/youtube/callback': [302],
  // Telegram's webhook: no bot configured in this stack.
  'POST /api/telegram/webhook': [503, 'telegram not configured'],
  // The e-mailed links of the account page.
  'POST /api/account/email/confirm': [400, 'invalid token'],
  'POST /api/account/close/confirm': [400, 'invalid token'],
};
// The task API answers any caller without a run token (lambdas/http/stream-tasks.ts): a session token is not one.
const taskAnswers = (caller: 'anonymous' | 'other' | 'owner'): Record<string, Expected> => {
  const answer: Expected = caller === 'anonymous' ? [401, 'unauthorized'] : [409, 'task lease lost'];
  return { 'POST /api/task/lease': answer, 'POST /api/task/heartbeat': answer, 'PUT /api/task/preview': answer, 'POST /api/task/probe': answer };
};
const noStripe: Expected = [503, 'payment provider missing configuration'];
const otherUser: Record<string, Expected> = {
  'POST /api/logout': [204],
  'GET /api/me': [200],
  'GET /api/ws': [200],
  'GET /api/subscription': [200],
  'POST /api/billing/checkout': noStripe,
  'GET /api/billing/checkout/{id}': noStripe,
  'POST /api/billing/portal': noStripe,
  'GET /api/videos': [200],
  'GET /api/videos/{id}': [404, 'not found'],
  'PATCH /api/videos/{id}': [404, 'not found'],
  'DELETE /api/videos/{id}': [404, 'not found'],
  'POST /api/videos/{id}/quality': [404, 'not found'],
  'GET /api/channels': [200],
  'POST /api/channels/rtmp': [201],
  'PATCH /api/channels/{id}': [404, 'not found'],
  'DELETE /api/channels/{id}': [404, 'not found'],
  'POST /api/channels/youtube': [503, 'youtube not configured'],
  'GET /api/streams': [200],
  'POST /api/streams': [201],
  'GET /api/streams/{id}': [404, 'stream not found'],
  'PATCH /api/streams/{id}': [404, 'stream not found'],
  'PUT /api/streams/{id}/schedule': [404, 'stream not found'],
  'DELETE /api/streams/{id}': [404, 'stream not found'],
  'POST /api/streams/{id}/start': [404, 'stream not found'],
  'POST /api/streams/{id}/stop': [404, 'stream not found'],
  'PUT /api/streams/{id}/playlist': [404, 'stream not found'],
  'PUT /api/streams/{id}/thumbnail': [404, 'stream not found'],
  'DELETE /api/streams/{id}/thumbnail': [404, 'stream not found'],
  'GET /api/streams/{id}/history': [404, 'stream not found'],
  'GET /api/incidents': [200],
  'GET /api/notifications': [200],
  'PATCH /api/notifications': [200],
  'POST /api/notifications/telegram': [503, 'telegram not configured'],
  'DELETE /api/notifications/telegram': [204],
  // The account page acts on the caller's own account: everyone gets their own answer, never the owner's.
  'GET /api/account': [200],
  'PATCH /api/account': [200],
  'POST /api/account/email': [403, 'wrong password'],
  'POST /api/account/password': [403, 'wrong password'],
  'GET /api/account/sessions': [200],
  'POST /api/account/sessions/sign-out-others': [200],
  'DELETE /api/account/sessions/{id}': [404, 'not found'],
  'GET /api/account/export': [200],
  'POST /api/account/close': [403, 'wrong password'],
};
const ownerAnswers: Record<string, Expected> = {
  ...otherUser,
  'GET /api/videos/{id}': [200],
  'PATCH /api/videos/{id}': [200],
  'DELETE /api/videos/{id}': [204],
  'POST /api/videos/{id}/quality': [200],
  'PATCH /api/channels/{id}': [200],
  'DELETE /api/channels/{id}': [204],
  'GET /api/streams/{id}': [200],
  'GET /api/streams/{id}/history': [200],
  'PATCH /api/streams/{id}': [200],
  'PUT /api/streams/{id}/schedule': [200],
  'DELETE /api/streams/{id}': [204],
  'POST /api/streams/{id}/start': [400, 'invalid request'],
  'POST /api/streams/{id}/stop': [200],
  'PUT /api/streams/{id}/playlist': [200],
  'PUT /api/streams/{id}/thumbnail': [200],
  'DELETE /api/streams/{id}/thumbnail': [200],
};

/** Routes that end things run last, in an order that keeps the others meaningful; sign-out at the very end. */
const lastOnes = ['DELETE /api/streams/{id}/thumbnail', 'DELETE /api/streams/{id}', 'DELETE /api/channels/{id}', 'DELETE /api/videos/{id}', 'POST /api/logout'];
const inOrder = [...routes].sort((a, b) => lastOnes.indexOf(routeKeyOf(a)) - lastOnes.indexOf(routeKeyOf(b)));

async function column(caller: 'anonymous' | 'other' | 'owner', token: string | undefined): Promise<{ route: string; status: number; error?: string }[]> {
  const answers = [];
  for (const route of inOrder) {
    const key = routeKeyOf(route);
    const answer = await send(stack.urls.api, route.method, sampleRequest(route, world), token ? { token } : {});
    expectCatalogued(answer, `${caller}: ${key}`);
    if (caller !== 'owner') expectNothingOfTheOwner(answer, `${caller}: ${key}`);
    answers.push({ route: key, status: answer.status, ...(answer.status >= 400 ? { error: answer.body?.error } : {}) });
  }
  return answers;
}

const expectedColumn = (table: (route: RouteDefinition) => Expected) =>
  inOrder.map((route) => {
    const [status, error] = table(route);
    return { route: routeKeyOf(route), status, ...(status >= 400 ? { error } : {}) };
  });
const answerOf =
  (caller: 'anonymous' | 'other' | 'owner', answers: Record<string, Expected>) =>
  (route: RouteDefinition): Expected => {
    const key = routeKeyOf(route);
    if (route.auth === 'task') return taskAnswers(caller)[key] ?? [0, 'no expectation'];
    if (route.auth !== 'session') return publicAnswers[key] ?? [0, 'no expectation'];
    return caller === 'anonymous' ? [401, 'unauthorized'] : (answers[key] ?? [0, 'no expectation']);
  };

test('every route of the table has a sample request and an expected answer for every caller', () => {
  expect(routesWithoutSample()).toEqual([]);
  for (const route of routes) {
    const key = routeKeyOf(route);
    if (route.auth === 'session') expect({ key, other: key in otherUser, owner: key in ownerAnswers }).toEqual({ key, other: true, owner: true });
    else if (route.auth === 'task') expect({ key, task: key in taskAnswers('owner') }).toEqual({ key, task: true });
    else expect({ key, public: key in publicAnswers }).toEqual({ key, public: true });
  }
});

test('signed media URLs: a bearer URL for whoever holds it, nothing when any part of it is changed', async () => {
  for (const url of [thumbnailUrl, streamThumbnailUrl]) {
    expect((await fetch(`${stack.urls.web}${url}`)).status).toBe(200);
    const signed = new URL(url, stack.urls.web);
    const tampered = [
      (u: URL) => u.searchParams.set('u', other.userId),
      (u: URL) => u.searchParams.set('e', String(Number(u.searchParams.get('e')) + 3600)),
      (u: URL) => u.searchParams.set('s', 'A'.repeat(43)),
      (u: URL) => {
        u.pathname = u.pathname.replace(/\/media\/[^/]+\//, `/media/${world.channelId}/`);
      },
    ];
    for (const change of tampered) {
      const forged = new URL(signed);
      change(forged);
      const answer = await fetch(forged);
      expect({ forged: forged.pathname + forged.search, status: answer.status }).toEqual({ forged: forged.pathname + forged.search, status: 404 });
    }
  }
});

test("tus: anyone else is refused the owner's upload; the owner resumes it", async () => {
  const endpoint = `${stack.urls.api}/uploads`;
  const tus = (token?: string) => ({ 'Tus-Resumable': '1.0.0', ...(token ? { authorization: `Bearer ${token}` } : {}) });
  const created = await fetch(endpoint, {
    method: 'POST',
    headers: { ...tus(owner.token), 'Upload-Length': '100', 'Upload-Metadata': 'filename aC5tcDQ=,filetype dmlkZW8vbXA0,kind dmlkZW8=' },
  });
  expect(created.status).toBe(201);
  const url = new URL(created.headers.get('location')!, stack.urls.web).href;
  const patch = (token?: string) =>
    fetch(url, {
      method: 'PATCH',
      headers: { ...tus(token), 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(10),
    });
  const statuses = async (token?: string) => [
    (await fetch(url, { method: 'HEAD', headers: tus(token) })).status,
    (await patch(token)).status,
    (await fetch(url, { method: 'DELETE', headers: tus(token) })).status,
  ];
  expect({ anonymous: await statuses(), other: await statuses(other.token) }).toEqual({ anonymous: [401, 401, 401], other: [404, 404, 404] });
  expect((await fetch(endpoint, { method: 'POST', headers: { ...tus(), 'Upload-Length': '100' } })).status).toBe(401);
  expect((await fetch(url, { method: 'HEAD', headers: tus(owner.token) })).status).toBe(200);
  expect((await patch(owner.token)).status).toBe(204);
});

test("the realtime WebSocket: no ticket, no socket; another user's socket hears nothing of the owner's", async () => {
  const open = async (token?: string) => {
    const ticket = token ? (await api(stack, 'GET', '/ws', { token })).body : { url: stack.urls.realtime, token: '' };
    const socket = new WebSocket(`${ticket.url}?token=${encodeURIComponent(ticket.token)}`);
    const received: RealtimeEvent[] = [];
    socket.addEventListener('message', (m) => received.push(JSON.parse(String(m.data))));
    const opened = await new Promise<boolean>((resolve) => {
      socket.onopen = () => resolve(true);
      socket.onerror = () => resolve(false);
    });
    return { socket, received, opened };
  };
  expect((await open()).opened).toBe(false);
  const [mine, theirs] = [await open(owner.token), await open(other.token)];
  expect([mine.opened, theirs.opened]).toEqual([true, true]);
  const event: RealtimeEvent = { type: 'video.progress', videoId: world.videoId, percent: 50 };
  await stack.deps.realtime.publish(owner.userId, event);
  for (let i = 0; i < 100 && mine.received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 100));
  expect({ owner: mine.received, other: theirs.received }).toEqual({ owner: [event], other: [] });
  mine.socket.close();
  theirs.socket.close();
});

test("through the API's own endpoint, without CloudFront, every route is refused", async () => {
  const answers = [];
  for (const route of routes) {
    const answer = await send(stack.urls.apiDirect, route.method, sampleRequest(route, world), { token: owner.token });
    answers.push({ route: routeKeyOf(route), status: answer.status, error: answer.body?.error });
  }
  expect(answers).toEqual(routes.map((route) => ({ route: routeKeyOf(route), status: 403, error: 'direct access refused' })));
});

test("anonymous: 401 on every session route, the public routes' own answers, nothing of the owner's", async () => {
  expect(await column('anonymous', undefined)).toEqual(expectedColumn(answerOf('anonymous', {})));
}, 60_000);

test('another user: the catalogued "not found" for every resource of the owner, and nothing of the owner\'s anywhere', async () => {
  expect(await column('other', other.token)).toEqual(expectedColumn(answerOf('other', otherUser)));
}, 60_000);

test("the owner: every route's own answer", async () => {
  // A fresh session, so the sign-out at the end does not end the one the other tests used.
  const session = await api(stack, 'POST', '/login', { body: { email: owner.email, password: strongPassword } });
  expect(await column('owner', session.body.token)).toEqual(expectedColumn(answerOf('owner', ownerAnswers)));
}, 60_000);
