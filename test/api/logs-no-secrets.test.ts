// No secret reaches the logs: a whole API flow (register, confirm, sign-in, password reset, an RTMP destination with
// its stream key, the realtime socket, uploads, a stream started and stopped, plus refusals of each kind, and
// CloudFront's origin-verify value, right and forged) on a local stack with the handlers' logger at INFO and the
// stream task's logs, then every captured line is searched for the passwords, tokens, stream key and origin-verify
// values the flow used, and for the user's e-mail address.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LocalStack } from '../../local/stack';
import { api, mailsTo, tokenOf, uniqueEmail } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';

/** What the handlers in this process write (Powertools writes JSON lines to stdout, errors to stderr). */
const captured: string[] = [];
const writers = { stdout: process.stdout.write, stderr: process.stderr.write };
let stack: LocalStack;

beforeAll(async () => {
  // INFO as in AWS (lib/constructs/handler-function.ts), for the handlers and the stream-task children. The logger
  // takes its level when it is made (and returns to it on every invocation), so the stack, which makes it, is
  // imported only now.
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  const { startTestStack } = await import('../helpers/stack');
  for (const name of ['stdout', 'stderr'] as const) {
    process[name].write = ((chunk: string | Uint8Array) => {
      captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof process.stdout.write;
  }
  stack = await startTestStack({ rtmp: true });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  process.stdout.write = writers.stdout;
  process.stderr.write = writers.stderr;
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
});

/** The stream task's own log files (the RTMP test server's logs are the destination's, not ours). */
async function streamTaskLogs(): Promise<string> {
  const dir = join(stack.dataDir, 'logs');
  const files = (await readdir(dir)).filter((file) => file.startsWith('stream-'));
  expect(files.length).toBeGreaterThan(0);
  return (await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')))).join('\n');
}

test('passwords, session and e-mail tokens, realtime tokens, stream keys and e-mail addresses never appear in the logs', async () => {
  const secrets: Record<string, string> = {};
  const unique = () => randomBytes(9).toString('base64url');
  const email = uniqueEmail('logs');
  secrets.password = `first ${unique()} password`;
  secrets.newPassword = `second ${unique()} password`;

  expect((await api(stack, 'POST', '/register', { body: { displayName: 'Logs', email, password: secrets.password, language: 'en', acceptTerms: true, ageConfirmed: true } })).status).toBe(201);
  secrets.confirmToken = tokenOf((await mailsTo(stack, email)).at(-1));
  expect((await api(stack, 'POST', '/confirm', { body: { token: `${secrets.confirmToken}x` } })).status).toBe(400);
  const confirmed = await api(stack, 'POST', '/confirm', { body: { token: secrets.confirmToken } });
  secrets.confirmSession = confirmed.body.token;

  expect((await api(stack, 'POST', '/login', { body: { email, password: `${secrets.password}!` } })).status).toBe(401);
  secrets.session = (await api(stack, 'POST', '/login', { body: { email, password: secrets.password } })).body.token;
  expect((await api(stack, 'GET', '/me', { token: `${secrets.session}x` })).status).toBe(401);

  expect((await api(stack, 'POST', '/forgot-password', { body: { email } })).status).toBe(202);
  secrets.resetToken = tokenOf((await mailsTo(stack, email)).at(-1));
  expect((await api(stack, 'POST', '/reset-password', { body: { token: secrets.resetToken, password: 'password' } })).status).toBe(422);
  const reset = await api(stack, 'POST', '/reset-password', { body: { token: secrets.resetToken, password: secrets.newPassword } });
  expect(reset.status).toBe(200);
  secrets.resetSession = reset.body.token;
  const token = secrets.resetSession!;
  // CloudFront's origin-verify value reached every API request above (the local origin adds it); a forged one too.
  secrets.originVerify = stack.originVerify;
  const forged = await fetch(`${stack.urls.apiDirect}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-viewer-address': '203.0.113.5', 'x-origin-verify': `${stack.originVerify}x` },
    body: JSON.stringify({ email, password: 'not the password' }),
  });
  expect(forged.status).toBe(401);
  secrets.forgedOriginVerify = `${stack.originVerify}x`;

  const realtime = await api(stack, 'GET', '/ws', { token });
  secrets.realtimeToken = realtime.body.token;
  const socket = new WebSocket(`${realtime.body.url}?token=${encodeURIComponent(secrets.realtimeToken!)}`);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  const refused = new WebSocket(`${realtime.body.url}?token=${encodeURIComponent(`${secrets.realtimeToken}x`)}`);
  await new Promise((resolve) => refused.addEventListener('error', resolve, { once: true }));

  secrets.streamKey = `live_${unique()}`;
  const channel = await api(stack, 'POST', '/channels/rtmp', { token, body: { name: 'Local', url: stack.urls.rtmp, key: secrets.streamKey } });
  expect(channel.status).toBe(201);
  expect((await api(stack, 'POST', '/channels/rtmp', { token, body: { name: 'Bad', url: 'rtmp://host', key: secrets.streamKey } })).status).toBe(400);
  const refusedUpload = await fetch(`${stack.urls.api}/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secrets.session}x`, 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': 'filename bG9vcC5tcDQ=,kind dmlkZW8=' },
  });
  expect(refusedUpload.status).toBe(401);
  const videoId = await uploadWithTus(stack, token, (await makeClip({ seconds: 4 })).bytes);
  expect((await waitForItem(stack, token, videoId)).status).toBe('ready');
  const stream = await api(stack, 'POST', '/streams', { token, body: { title: 'Loop', videoId, channelIds: [channel.body.id] } });
  expect((await api(stack, 'POST', `/streams/${stream.body.id}/start`, { token })).status).toBe(200);
  await waitForStreamStatus(stack, token, stream.body.id, 'started', 90_000);
  expect((await api(stack, 'PATCH', `/streams/${stream.body.id}`, { token, body: { title: 'x' } })).status).toBe(409);
  expect((await api(stack, 'POST', `/streams/${stream.body.id}/stop`, { token })).status).toBe(200);
  socket.close();
  expect((await api(stack, 'POST', '/logout', { token })).status).toBe(204);
  await stack.stop();

  const handlerLogs = captured.join('');
  const logs = `${handlerLogs}\n${await streamTaskLogs()}`;
  // The capture works: JSON lines at INFO with the request keys (user id, route) that support searches by.
  const lines = handlerLogs.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toContainEqual(expect.objectContaining({ level: 'INFO', message: 'request refused', route: 'POST /api/login' }));
  expect(lines).toContainEqual(expect.objectContaining({ level: 'INFO', message: 'realtime connected', userId: confirmed.body.user.id }));

  expect(Object.values(secrets).every((secret) => secret.length >= 16)).toBe(true);
  for (const [name, secret] of Object.entries(secrets)) expect([name, logs.includes(secret)]).toEqual([name, false]);
  // Nor the address: support finds a user's lines by id (docs/operations.md).
  expect(logs.toLowerCase()).not.toContain(email.toLowerCase());
}, 240_000);
