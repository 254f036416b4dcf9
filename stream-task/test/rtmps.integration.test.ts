// RTMPS end to end with real ffmpeg (Debian's, GnuTLS) and real TLS: nginx's stream module ends TLS in front of
// nginx-rtmp with a certificate from a test CA, as a platform's RTMPS ingest does. What arrives is read back with
// ffprobe behind the TLS front. A server whose certificate does not verify (another CA, another name) is never
// published to, alone or next to another destination in the tee, and the failure says why.
import { join } from 'node:path';
import { dtsProfile, makeTestVideo, readPackets, removeDir, RtmpDestination, startStream, stopEverything, tempDir } from './integration';

let dir: string;
let destination: RtmpDestination;
/** Another server with a certificate from its own CA, which the stream does not trust. */
let impostor: RtmpDestination;
let video: string;

beforeAll(async () => {
  dir = tempDir('rtmps-it');
  [destination, impostor, video] = await Promise.all([
    RtmpDestination.start(join(dir, 'nginx')),
    RtmpDestination.start(join(dir, 'impostor')),
    makeTestVideo(join(dir, 'video.mp4'), { seconds: 6 }),
  ]);
}, 60_000);

afterEach(stopEverything, 30_000);

afterAll(async () => {
  await Promise.all([destination?.stop(), impostor?.stop()]);
  removeDir(dir);
});

test('an RTMPS destination whose certificate verifies receives the stream, read back behind the TLS front', async () => {
  const stream = startStream({
    video,
    destinations: [{ id: 'tls', url: destination.secureUrl('secure') }],
    tls: { caFile: destination.server.caFile },
    dir: join(dir, 'work-ok'),
  });
  await stream.sink.waitFor((h) => h.actual === 'started', 20_000, 'actual started');
  const packets = await readPackets(destination.url('secure'), 4);
  expect(dtsProfile(packets, 'video').count).toBeGreaterThan(60);
  expect(dtsProfile(packets, 'audio').count).toBeGreaterThan(80);
  expect(stream.supervisor.state).toMatchObject({ actual: 'started', restarts: 0 });
  expect(stream.sink.latest()?.destinations).toEqual([{ id: 'tls', state: 'ok' }]);
}, 60_000);

test.each([
  ['signed by another CA', () => impostor.secureUrl('other-ca'), () => impostor, 'other-ca', /the certificate could not be verified/],
  ['for another name', () => destination.secureUrl('other-name', 'localhost'), () => destination, 'other-name', /the certificate is not for this server name/],
])(
  'a certificate %s is refused: nothing is published, and the failure says why',
  async (_, url, server, key, why) => {
    const stream = startStream({ video, destinations: [{ id: 'tls', url: url() }], tls: { caFile: destination.server.caFile }, dir: join(dir, `work-${key}`) });
    const heartbeat = await stream.sink.waitFor((h) => h.restarts >= 2, 30_000, 'two failed attempts');
    expect(heartbeat.destinations).toEqual([{ id: 'tls', state: 'failed' }]);
    expect(heartbeat.lastError).toMatch(/^ffmpeg exited with code \d+: destination certificate refused \(/);
    expect(heartbeat.lastError).toMatch(why);
    // ffmpeg's own verification refused it too (GnuTLS's words in the task's log).
    expect(stream.logs.join('\n')).toMatch(/Peer certificate failed verification|does not match hostname/);
    expect(stream.sink.heartbeats.some((h) => h.actual === 'started')).toBe(false);
    expect(await server().publishers(key)).toBe(0);
  },
  60_000,
);

test('in a tee, the destination with a refused certificate fails on its own while the verified one keeps receiving', async () => {
  const stream = startStream({
    video,
    destinations: [
      { id: 'good', url: destination.secureUrl('tee-good') },
      { id: 'bad', url: impostor.secureUrl('tee-bad') },
    ],
    tls: { caFile: destination.server.caFile },
    dir: join(dir, 'work-tee'),
  });
  const heartbeat = await stream.sink.waitFor(
    (h) => h.actual === 'started' && h.destinations.some((d) => d.state === 'failed'),
    30_000,
    'the bad destination failed',
  );
  expect(heartbeat.destinations).toEqual([
    { id: 'good', state: 'ok' },
    { id: 'bad', state: 'failed' },
  ]);
  expect(heartbeat.lastError).toMatch(/^destination bad failed: destination certificate refused \(the certificate could not be verified/);
  const packets = await readPackets(destination.url('tee-good'), 4);
  expect(dtsProfile(packets, 'video').count).toBeGreaterThan(60);
  expect(await impostor.publishers('tee-bad')).toBe(0);
}, 60_000);
