// RTMP destinations (security audit L3, L4, L13). On a stack that applies AWS's rule, a destination naming
// loopback, a private network, link-local or metadata addresses (in any spelling, or through a name that resolves
// there) is refused, so the stream task is never sent into our own network. A stream key is printable ASCII only
// (a NUL crash-looped the task and logged the key), and a short key shows no characters in its hint.
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
let token: string;
beforeAll(async () => {
  stack = await startTestStack({ publicDestinationsOnly: true });
  ({ token } = await signedInUser(stack, 'destinations'));
});
afterAll(() => stack.stop());

// Every destination its own name and key: a second one with the same name or key is refused as a duplicate.
let added = 0;
const add = (url: string, key = `abcd-efgh-ijkl-${String(added).padStart(4, '0')}`) => {
  added += 1;
  return api(stack, 'POST', '/channels/rtmp', { token, body: { name: `destination ${added}`, url, key } });
};

test.each([
  'rtmp://127.0.0.1/x',
  'rtmp://169.254.169.254/latest',
  'rtmp://169.254.170.2/v2',
  'rtmp://10.0.0.1/live',
  'rtmp://192.168.1.10/live',
  'rtmp://2130706433/live',
  'rtmp://0x7f.1/live',
  'rtmp://017700000001/live',
  'rtmp://[::1]/live',
  'rtmp://0.0.0.0/live',
  'rtmp://[::ffff:169.254.169.254]/live',
  'rtmp://[fd00:ec2::254]/live',
  'rtmps://localhost:443/live',
  'rtmp://LOCALHOST/live',
])('%s is refused', async (url) => {
  expect(await add(url)).toMatchObject({ status: 422, body: { error: 'destination not allowed' } });
});

test('a public server is taken (numeric spellings are stored as the address they mean); a port the tasks may not dial or a name that does not resolve is a 400', async () => {
  expect(await add('rtmp://8.8.8.8/live')).toMatchObject({ status: 201, body: { rtmpUrl: 'rtmp://8.8.8.8/live' } });
  expect(await add('rtmp://134744072:1935/live')).toMatchObject({ status: 201, body: { rtmpUrl: 'rtmp://8.8.8.8:1935/live' } });
  expect(await add('rtmp://8.8.8.8:8080/live')).toMatchObject({
    status: 400,
    body: { error: 'invalid request', details: { fields: { url: 'the port must be 1935 or 443' } } },
  });
  expect(await add('rtmp://no-such-host.invalid/live')).toMatchObject({
    status: 400,
    body: { error: 'invalid request', details: { fields: { url: expect.any(String) } } },
  });
});

test.each([
  ['a NUL', 'live\u0000key'],
  ['an escape', 'live\u001bkey'],
  ['a non-ASCII letter', 'livékey'],
  ['a space', 'live key'],
  ['a slash', 'live/key'],
  ['a #', 'live#key'],
])('a stream key with %s is refused', async (_, key) => {
  expect(await add('rtmp://8.8.8.8/live', key)).toMatchObject({
    status: 400,
    body: { error: 'invalid request', details: { fields: { key: expect.any(String) } } },
  });
});

test('a short key shows no characters in its hint; a long one its last four', async () => {
  expect((await add('rtmp://8.8.8.8/live', 'abcd')).body.keyHint).toBe('••••');
  expect((await add('rtmp://8.8.8.8/live', 'k3y-0f-eleven')).body.keyHint).toBe('••••even');
  expect((await add('rtmp://8.8.8.8/live', 'short-key')).body.keyHint).toBe('••••');
});
