// Security audit M8: titles, names and descriptions took control characters (ESC, CR, BEL, U+202E), which the
// support tool then printed raw into the operator's terminal. Every free-text field of the API refuses them with a
// catalogued 400 naming the field; text in every script the product speaks (and emoji) is still taken.
import type { LocalStack } from '../../local/stack';
import { api, signedInUser, strongPassword, uniqueEmail } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
let token: string;
beforeAll(async () => {
  stack = await startTestStack();
  ({ token } = await signedInUser(stack, 'text'));
});
afterAll(() => stack.stop());

const forged = 'ok\u001b[2K\r\u001b[31mSUSPENDED by ops\u001b[0m \u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007';
const hostile = [forged, 'a\u0000b', 'gpj\u202Eexe', 'ti\uFEFFtle', 'x\u0085y'];

const fields: [string, (text: string) => Promise<{ status: number; body: Record<string, any> }>, string][] = [
  [
    'register: displayName',
    (text) =>
      api(stack, 'POST', '/register', { body: { displayName: text, email: uniqueEmail(), password: strongPassword, acceptTerms: true, ageConfirmed: true } }),
    'displayName',
  ],
  ['stream: title', (text) => api(stack, 'POST', '/streams', { token, body: { title: text } }), 'title'],
  ['stream: description', (text) => api(stack, 'POST', '/streams', { token, body: { title: 'ok', description: text } }), 'description'],
  ['stream: new title', (text) => api(stack, 'PATCH', '/streams/00000000-0000-4000-8000-000000000000', { token, body: { title: text } }), 'title'],
  [
    'channel: name',
    (text) => api(stack, 'POST', '/channels/rtmp', { token, body: { name: text, url: 'rtmp://127.0.0.1:1935/live', key: 'abcd-efgh-ijkl' } }),
    'name',
  ],
  [
    'channel: server URL',
    (text) => api(stack, 'POST', '/channels/rtmp', { token, body: { name: 'ok', url: `rtmp://127.0.0.1:1935/li${text}ve`, key: 'abcd-efgh-ijkl' } }),
    'url',
  ],
  ['channel: new name', (text) => api(stack, 'PATCH', '/channels/00000000-0000-4000-8000-000000000000', { token, body: { name: text } }), 'name'],
  [
    'channel: new server URL',
    (text) => api(stack, 'PATCH', '/channels/00000000-0000-4000-8000-000000000000', { token, body: { url: `rtmp://127.0.0.1:1935/li${text}ve` } }),
    'url',
  ],
  ['video: new title', (text) => api(stack, 'PATCH', '/videos/00000000-0000-4000-8000-000000000000', { token, body: { title: text } }), 'title'],
];

test.each(fields)('%s refuses control and invisible formatting characters', async (_, send, field) => {
  for (const text of hostile) {
    const answer = await send(text);
    expect({ text: JSON.stringify(text), status: answer.status, error: answer.body.error, field: Object.keys(answer.body.details?.fields ?? {}) }).toEqual({
      text: JSON.stringify(text),
      status: 400,
      error: 'invalid request',
      field: [field],
    });
  }
});

test('text in every language of the product, with emoji, and a description over several lines are taken', async () => {
  const title = 'Lo-fi · Привіт · ñandú · क्‍ष और क्‌ष · 👨‍👩‍👧';
  const created = await api(stack, 'POST', '/streams', { token, body: { title, description: 'Line one\nLine two\twith a tab' } });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ title, description: 'Line one\nLine two\twith a tab' });
});
