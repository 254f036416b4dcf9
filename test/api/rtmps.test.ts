// RTMPS end to end through the local stack: a creator's RTMPS destination (nginx's stream module ending TLS in
// front of nginx-rtmp, its certificate from the stack's test CA, which the stack's stream tasks trust) receives the
// loop, read back with ffprobe behind the TLS front. A server whose certificate does not verify (another CA, another
// name) gets nothing, and the creator sees why: the destination failed, and the reason in the stream's health.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startNginxRtmp, type NginxRtmp } from '../../local/nginx-rtmp';
import { freePort } from '../../local/ports';
import type { LocalStack } from '../../local/stack';
import { api } from '../helpers/accounts';
import { creatorWithDestination, createStream, type Creator } from '../helpers/creators';
import { waitForStreamStatus } from '../helpers/media';
import { rtmpPublishers, streamTaskProcesses } from '../helpers/stream-tasks';
import { startTestStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

const run = promisify(execFile);

let stack: LocalStack;
/** An RTMPS server with a certificate from a CA of its own, which the stack's tasks do not trust. */
let impostor: NginxRtmp;
let creator: Creator;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
  const dir = mkdtempSync(join(tmpdir(), 'loopcast-impostor-'));
  impostor = await startNginxRtmp({ dir, rtmpPort: await freePort(), hlsPort: await freePort(), logFile: join(dir, 'nginx.log') });
  creator = await creatorWithDestination(stack, 'tls', 4);
}, 120_000);
afterAll(async () => {
  await impostor?.stop();
  await stack?.stop();
});

/** An RTMPS destination of the creator's, and a stream to it. */
async function streamTo(name: string, url: string, key: string): Promise<string> {
  const channel = await api(stack, 'POST', '/channels/rtmp', { token: creator.token, body: { name, url, key } });
  expect(channel.status).toBe(201);
  const stream = await createStream(stack, creator, { title: name, channelIds: [channel.body.id] });
  expect((await api(stack, 'POST', `/streams/${stream.body.id}/start`, { token: creator.token })).status).toBe(200);
  return stream.body.id;
}

/** The stack's stream task log files. */
const streamTaskLogs = async () => {
  const dir = join(stack.dataDir, 'logs');
  const files = (await readdir(dir)).filter((file) => file.startsWith('stream-'));
  return (await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')))).join('\n');
};

const stop = (streamId: string) => api(stack, 'POST', `/streams/${streamId}/stop`, { token: creator.token });

test("the stack's RTMPS destination receives the loop with its certificate verified against the stack's test CA", async () => {
  expect(stack.urls.rtmps).toMatch(/^rtmps:\/\/127\.0\.0\.1:\d+\/live$/);
  const streamId = await streamTo('Over TLS', stack.urls.rtmps!, 'secure-key');
  const live = await waitForStreamStatus(stack, creator.token, streamId, 'started', 90_000);
  expect(live.health).toMatchObject({ actual: 'started', destinations: [{ state: 'ok' }] });
  // The task trusts the stack's CA (and nothing else is different from AWS, where it trusts the system's store).
  expect(streamTaskProcesses(streamId)[0]?.environment.LOOPCAST_DESTINATION_CA_FILE).toMatch(/tls\/ca\.crt$/);
  // What arrived through TLS, as a player reads it behind the front.
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-rw_timeout', '10000000', '-show_entries', 'stream=codec_type,codec_name,width', '-of', 'json', `${stack.urls.rtmp}/secure-key`],
    { timeout: 30_000 },
  );
  expect(JSON.parse(stdout).streams).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 1920 }),
      expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
    ]),
  );
  // At its start, the task asked the destination, through the same verified TLS, which RTMP chunk size it declares
  // (what ffmpeg's CPU and egress depend on; nginx-rtmp declares 4096), and logged it.
  const destinationId = live.health.destinations[0].id;
  await waitFor(
    'the chunk size in the stream task log',
    streamTaskLogs,
    (logs) => logs.includes(`destination ${destinationId} declares RTMP chunk size 4096`),
    20_000,
  );
  await stop(streamId);
}, 150_000);

test.each([
  ['another CA', () => impostor.rtmpsUrl, () => ({ urls: { hls: impostor.hlsUrl } }), /the certificate could not be verified/],
  ['another name', () => stack.urls.rtmps!.replace('127.0.0.1', 'localhost'), () => stack, /the certificate is not for this server name/],
])(
  'a server whose certificate is for %s gets nothing, and the stream says why',
  async (label, url, server, why) => {
    const key = `refused-${label.replace(/\W/g, '')}`;
    const streamId = await streamTo(`Refused ${label}`, url(), key);
    const health = await waitFor(
      'the certificate refusal in the health',
      async () => (await api(stack, 'GET', `/streams/${streamId}`, { token: creator.token })).body.health,
      (h) => typeof h?.lastError === 'string' && h.lastError.includes('destination certificate refused'),
      60_000,
    );
    expect(health).toMatchObject({ destinations: [{ state: 'failed' }] });
    expect(health.lastError).toMatch(why);
    expect(await rtmpPublishers(server(), key)).toBe(0);
    await stop(streamId);
  },
  150_000,
);
