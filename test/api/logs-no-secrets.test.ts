// No secret reaches the logs: a whole API flow (register, confirm, sign-in, password reset, an RTMP destination with
// its stream key, the realtime socket, uploads, a stream started and stopped, a YouTube account connected through
// Google's consent screen (a fake Google) and a stream to it started and stopped, plus refusals of each kind, and
// CloudFront's origin-verify value, right and forged) on a local stack with the handlers' logger at INFO and the
// stream task's logs, then every captured line is searched for the passwords, tokens, stream keys, Google's
// authorization code, access and refresh tokens, the Google client secret and origin-verify values the flow used,
// and for the user's e-mail address.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoChannelStore } from '../../lambdas/adapters/dynamo/channel-store';
import { sealContext } from '../../lambdas/core/streams/streams';
import { startNginxRtmp, type NginxRtmp } from '../../local/nginx-rtmp';
import { freePort } from '../../local/ports';
import type { LocalStack } from '../../local/stack';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { api, mailsTo, tokenOf, uniqueEmail } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';

/** What the handlers in this process write (Powertools writes JSON lines to stdout, errors to stderr). */
const captured: string[] = [];
const writers = { stdout: process.stdout.write, stderr: process.stderr.write };
let stack: LocalStack;
let google: FakeGoogle;
/** YouTube's ingestion point in the fake (the stack's own nginx-rtmp gets its port only when the stack starts). */
let youtubeIngest: NginxRtmp;

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
  const dir = mkdtempSync(join(tmpdir(), 'loopcast-logs-youtube-'));
  youtubeIngest = await startNginxRtmp({ dir, rtmpPort: await freePort(), hlsPort: await freePort(), logFile: join(dir, 'nginx.log') });
  google = await startFakeGoogle({ ingestionAddress: youtubeIngest.rtmpUrl });
  stack = await startTestStack({
    rtmp: true,
    google: { clientId: google.clientId, clientSecret: google.clientSecret, endpoints: google.endpoints, youtubeRootUrl: google.youtubeRootUrl },
  });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all([google?.stop(), youtubeIngest?.stop()]);
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

test('passwords, session and e-mail tokens, realtime tokens, stream keys, Google codes, tokens and client secret, and e-mail addresses never appear in the logs', async () => {
  const secrets: Record<string, string> = {};
  const unique = () => randomBytes(9).toString('base64url');
  const email = uniqueEmail('logs');
  secrets.password = `first ${unique()} password`;
  secrets.newPassword = `second ${unique()} password`;

  expect(
    (
      await api(stack, 'POST', '/register', {
        body: { displayName: 'Logs', email, password: secrets.password, language: 'en', acceptTerms: true, ageConfirmed: true },
      })
    ).status,
  ).toBe(202);
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
  // Refused as not coming through CloudFront (direct access refused), without the value in any log line.
  expect(forged.status).toBe(403);
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
    headers: {
      authorization: `Bearer ${secrets.session}x`,
      'tus-resumable': '1.0.0',
      'upload-length': '10',
      'upload-metadata': 'filename bG9vcC5tcDQ=,kind dmlkZW8=',
    },
  });
  expect(refusedUpload.status).toBe(401);
  const videoId = await uploadWithTus(stack, token, (await makeClip({ seconds: 4 })).bytes);
  expect((await waitForItem(stack, token, videoId)).status).toBe('ready');
  const stream = await api(stack, 'POST', '/streams', { token, body: { title: 'Loop', videoId, channelIds: [channel.body.id] } });
  expect((await api(stack, 'POST', `/streams/${stream.body.id}/start`, { token })).status).toBe(200);
  await waitForStreamStatus(stack, token, stream.body.id, 'started', 90_000);
  expect((await api(stack, 'PATCH', `/streams/${stream.body.id}`, { token, body: { title: 'x' } })).status).toBe(409);
  expect((await api(stack, 'POST', `/streams/${stream.body.id}/stop`, { token })).status).toBe(200);

  // A YouTube account: Google's consent screen sends the browser back with an authorization code, the API exchanges it
  // (with the client secret) for access and refresh tokens and makes the channel's reusable liveStream (its key).
  secrets.googleClientSecret = google.clientSecret;
  const consent = await api(stack, 'POST', '/channels/youtube', { token, body: { language: 'en' } });
  expect(consent.status).toBe(200);
  const callback = (await fetch(consent.body.url, { redirect: 'manual' })).headers.get('location')!;
  secrets.authorizationCode = new URL(callback).searchParams.get('code')!;
  const cookie = { cookie: `auth_token=${token}` };
  const connected = new URL((await fetch(callback, { redirect: 'manual', headers: cookie })).headers.get('location')!);
  const youtubeChannelId = connected.searchParams.get('connected')!;
  expect(youtubeChannelId).toBeTruthy();
  // Refused: the same callback again (its code in the URL), and a second account on the trial.
  const replayed = await fetch(callback, { redirect: 'manual', headers: cookie });
  expect(new URL(replayed.headers.get('location')!).searchParams.get('error')).toBe('invalid token');
  expect((await api(stack, 'POST', '/channels/youtube', { token, body: {} })).status).toBe(403);
  const youtubeChannel = (await new DynamoChannelStore(stack.deps.db, stack.config.tables.app).get(confirmed.body.user.id, youtubeChannelId))!;
  secrets.youtubeStreamKey = await stack.deps.secrets.open(youtubeChannel.sealedKey!, sealContext(youtubeChannel));
  // A stream to it: a broadcast made and bound with a fresh access token, the task publishing with the key.
  const youtubeStream = await api(stack, 'POST', '/streams', { token, body: { title: 'Loop on YouTube', videoId, channelIds: [youtubeChannelId] } });
  expect((await api(stack, 'POST', `/streams/${youtubeStream.body.id}/start`, { token })).status).toBe(200);
  await waitForStreamStatus(stack, token, youtubeStream.body.id, 'started', 90_000);
  expect((await api(stack, 'POST', `/streams/${youtubeStream.body.id}/stop`, { token })).status).toBe(200);
  const issued = google.issued();
  expect(issued.codes).toContain(secrets.authorizationCode);
  expect(issued.accessTokens.length).toBeGreaterThan(0);
  expect(issued.refreshTokens).toHaveLength(1);
  issued.accessTokens.forEach((accessToken, i) => {
    secrets[`googleAccessToken${i + 1}`] = accessToken;
  });
  secrets.googleRefreshToken = issued.refreshTokens[0]!;
  socket.close();
  expect((await api(stack, 'POST', '/logout', { token })).status).toBe(204);
  await stack.stop();

  const handlerLogs = captured.join('');
  const logs = `${handlerLogs}\n${await streamTaskLogs()}`;
  // The capture works: JSON lines at INFO with the request keys (user id, route) that support searches by.
  const lines = handlerLogs
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toContainEqual(expect.objectContaining({ level: 'INFO', message: 'request refused', route: 'POST /api/login' }));
  expect(lines).toContainEqual(expect.objectContaining({ level: 'INFO', message: 'realtime connected', userId: confirmed.body.user.id }));
  expect(lines).toContainEqual(expect.objectContaining({ level: 'INFO', message: 'request done', route: 'GET /api/channels/youtube/callback' }));

  expect(Object.values(secrets).every((secret) => secret.length >= 16)).toBe(true);
  for (const [name, secret] of Object.entries(secrets)) expect([name, logs.includes(secret)]).toEqual([name, false]);
  // Nor the address: support finds a user's lines by id (docs/operations.md).
  expect(logs.toLowerCase()).not.toContain(email.toLowerCase());
}, 300_000);
