// Fuzzing every route of the table (lambdas/contract/routes.ts) through the local origin: malformed JSON, bodies of
// the wrong type, every field of each route's sample body with wrong types and a 1 MB string, prototype keys, deep
// nesting, long and odd ids, bad percent-encoding in paths and queries, and wrong content types. Every answer must
// come within 10 s (no hang), none may be a 500, every refusal is catalogued (`{ error, message }` with the
// catalogue's status), and nothing pollutes Object.prototype of the process that runs the handlers.
import { errorCatalogue, isErrorKey } from '../../lambdas/core/errors';
import { routeKeyOf, routes, type RouteDefinition } from '../../lambdas/contract/routes';
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem } from '../helpers/media';
import { sampleRequest, send, type SampleRequest, type World } from '../helpers/route-samples';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
let token: string;
let world: World;

beforeAll(async () => {
  stack = await startTestStack();
  const owner = await signedInUser(stack, 'fuzz');
  token = owner.token;
  const videoId = await uploadWithTus(stack, token, (await makeClip({ seconds: 1 })).bytes);
  await waitForItem(stack, token, videoId);
  const channel = await api(stack, 'POST', '/channels/rtmp', { token, body: { name: 'Fuzz', url: 'rtmp://127.0.0.1:1935/live', key: 'fuzz-key-0123456789' } });
  const stream = await api(stack, 'POST', '/streams', { token, body: { title: 'Fuzz loop', videoId } });
  world = { email: owner.email, userId: owner.userId, videoId, streamId: stream.body.id, channelId: channel.body.id };
}, 120_000);
afterAll(() => stack.stop());

const MB = 'x'.repeat(1024 * 1024);
const wrongValues: unknown[] = [1, -1e308, true, null, [], {}, [1, 'a'], { nested: { deeper: 'x' } }, MB, '\u0000\uD800', 'x'.repeat(5000)];
const wholeBodies = ['{"a":', '{', '[]', '"x"', 'null', '1', 'true', '{"a":1}}', `${'['.repeat(20_000)}${']'.repeat(20_000)}`, '\uFEFF{}'];
const prototypeBodies = (body: object) => [
  `{"__proto__":{"isAdmin":true,"polluted":true},${JSON.stringify(body).slice(1)}`,
  `{"constructor":{"prototype":{"polluted":true}},${JSON.stringify(body).slice(1)}`,
  JSON.stringify({ ...body, userId: 'someone-else', id: 'chosen', status: 'started', plan: 'custom', isAdmin: true }),
];
const oddIds = ['L'.repeat(1018), 'L'.repeat(5000), '%', '%E0%A4%A', '%zz', '%00', '..%2F..%2Fetc', 'a%20b', '%F0%9F%98'];
const oddQueries = [
  '?u=%&e=%zz&s=%E0%A4',
  `?u=${'u'.repeat(5000)}`,
  '?code=%&state=%E0%A4%A&error=%zz',
  '?__proto__[x]=1&constructor[prototype][y]=1',
  '?e=1e999&v=-1',
];

interface Case {
  label: string;
  method: string;
  request: SampleRequest;
  headers?: Record<string, string>;
}

function cases(route: RouteDefinition): Case[] {
  const key = routeKeyOf(route);
  const sample = sampleRequest(route, world);
  const list: Case[] = [{ label: 'sample', method: route.method, request: sample }];
  const json = (body: string, contentType = 'application/json') => ({
    request: { path: sample.path, raw: { bytes: new TextEncoder().encode(body), contentType } },
  });
  // fetch sends no body with GET (nor would a browser).
  if (route.method !== 'GET') {
    for (const body of wholeBodies) list.push({ label: `body ${body.slice(0, 12)}`, method: route.method, ...json(body) });
    list.push({ label: 'text/plain', method: route.method, ...json('email=a&b=c', 'text/plain') });
    list.push({ label: '1 MB body', method: route.method, ...json(JSON.stringify({ big: MB })) });
  }
  if (sample.body && typeof sample.body === 'object') {
    for (const body of prototypeBodies(sample.body)) list.push({ label: `prototype ${body.slice(0, 20)}`, method: route.method, ...json(body) });
    for (const field of Object.keys(sample.body)) {
      for (const value of wrongValues) {
        list.push({
          label: `${field}=${JSON.stringify(value)?.slice(0, 16)}`,
          method: route.method,
          request: { path: sample.path, body: { ...sample.body, [field]: value } },
        });
      }
    }
  }
  if (route.path.includes('{id}')) {
    for (const id of oddIds) list.push({ label: `id ${id.slice(0, 16)}`, method: route.method, request: { ...sample, path: route.path.replace('{id}', id) } });
  }
  for (const query of oddQueries)
    list.push({ label: `query ${query.slice(0, 20)}`, method: route.method, request: { ...sample, path: `${sample.path}${query}` } });
  return list.map((c) => ({ ...c, label: `${key} ${c.label}` }));
}

/** Routes that end things go last (sign-out at the very end): the rest keep meeting live resources. */
const lastOnes = ['DELETE /api/streams/{id}/thumbnail', 'DELETE /api/streams/{id}', 'DELETE /api/channels/{id}', 'DELETE /api/videos/{id}', 'POST /api/logout'];
const inOrder = () => [...routes].sort((a, b) => lastOnes.indexOf(routeKeyOf(a)) - lastOnes.indexOf(routeKeyOf(b)));

test('no route answers 500 or hangs, and every refusal is catalogued, whatever it is sent', async () => {
  const statuses = new Map<number, number>();
  const problems: string[] = [];
  let sent = 0;
  for (const route of inOrder()) {
    const all = cases(route);
    // A few at a time: the machine is shared, and some routes answer no sooner than FLAT_RESPONSE_MS.
    for (let i = 0; i < all.length; i += 4) {
      await Promise.all(
        all.slice(i, i + 4).map(async (c) => {
          sent++;
          try {
            const answer = await send(stack.urls.api, c.method, c.request, { token, timeoutMs: 10_000 });
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            if (answer.status === 500) problems.push(`${c.label}: 500 ${answer.text.slice(0, 100)}`);
            if (
              answer.status >= 400 &&
              (!isErrorKey(answer.body?.error) ||
                errorCatalogue[answer.body.error as keyof typeof errorCatalogue].status !== answer.status ||
                typeof answer.body?.message !== 'string')
            ) {
              problems.push(`${c.label}: ${answer.status} not catalogued: ${answer.text.slice(0, 100)}`);
            }
          } catch (error) {
            problems.push(`${c.label}: ${(error as Error).name === 'TimeoutError' ? 'no answer within 10 s' : String(error)}`);
          }
        }),
      );
    }
  }
  process.stdout.write(`fuzz: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}\n`);
  expect(problems).toEqual([]);
  expect(statuses.get(500)).toBeUndefined();
  expect(sent).toBeGreaterThan(800);
  const prototype = Object.prototype as Record<string, unknown>;
  expect({ isAdmin: prototype.isAdmin, polluted: prototype.polluted, x: prototype.x, y: prototype.y }).toEqual({
    isAdmin: undefined,
    polluted: undefined,
    x: undefined,
    y: undefined,
  });
}, 110_000);
