import { connect } from 'node:net';
import { FakeClock, FakeProbe, FakeRunner, settle } from '../test/fakes';
import { InMemoryHeartbeatSink, type HeartbeatSink } from './heartbeat';
import type { Heartbeat } from '../../lambdas/contract/stream-task';
import type { PreparedMedia } from './media';
import { StreamSupervisor, type StreamSupervisorOptions } from './supervisor';

const media: PreparedMedia = { files: { videoPath: '/work/video/stream.mp4' }, loopDurationUs: 6_000_000, inputBitrateKbps: 2_128 };
const youtube = { id: 'yt', url: 'rtmp://a.rtmp.youtube.com/live2/SECRET-KEY-1' };
const twitch = { id: 'tw', url: 'rtmp://live.twitch.tv/app/SECRET-KEY-2' };

function setup(overrides: Partial<StreamSupervisorOptions> = {}) {
  const clock = new FakeClock();
  const runner = new FakeRunner();
  const probe = new FakeProbe();
  const sink = new InMemoryHeartbeatSink();
  const logs: string[] = [];
  const supervisor = new StreamSupervisor({
    streamId: 'stream-1',
    destinations: [youtube],
    restartTimes: [],
    timeZone: 'UTC',
    prepare: async () => media,
    sink,
    clock,
    runner,
    probe,
    random: () => 0.5,
    log: (line) => logs.push(line),
    ...overrides,
  });
  const exitCode = supervisor.run();
  return { clock, runner, probe, sink, logs, supervisor, exitCode };
}

/** ffmpeg at real time for `ms`: a progress block every 500 ms. */
async function stream(t: ReturnType<typeof setup>, ms: number, from = 0): Promise<number> {
  let outTimeUs = from;
  for (let elapsed = 0; elapsed < ms; elapsed += 500) {
    await t.clock.advance(500);
    outTimeUs += 500_000;
    t.runner.last.progress(outTimeUs);
  }
  await settle();
  return outTimeUs;
}

const latest = (sink: InMemoryHeartbeatSink): Heartbeat => sink.latest()!;

/** Whether something accepts connections on a loopback port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('stream supervisor (fake clock and processes)', () => {
  test('prepares, spawns ffmpeg with the spec, reports started with live figures, then a heartbeat every 10 s', async () => {
    const t = setup();
    await settle();
    expect(t.runner.processes).toHaveLength(1);
    expect(t.runner.last.command).toBe('ffmpeg');
    expect(t.runner.last.args).toEqual(expect.arrayContaining(['-i', '/work/video/stream.mp4', youtube.url]));
    expect(latest(t.sink).actual).toBe('starting');
    await stream(t, 13_000);
    // At once when started (first block, at 0.5 s), then the periodic one at 10 s.
    expect(t.sink.heartbeats.map((h) => h.actual)).toEqual(['starting', 'started', 'started']);
    const heartbeat = latest(t.sink);
    expect(heartbeat).toMatchObject({
      streamId: 'stream-1',
      desired: 'running',
      actual: 'started',
      uptimeSeconds: 9,
      fps: 30,
      speed: 1,
      bitrateKbps: 2_128, // the tee gives no total_size: the input's bitrate at speed 1
      loops: 1,
      restarts: 0,
      destinations: [{ id: 'yt', state: 'ok' }],
    });
    expect(Date.parse(heartbeat.at) - Date.parse(heartbeat.since)).toBe(9_500);
    t.supervisor.stop();
    expect(await t.exitCode).toBe(0);
  });

  test('a stalled ffmpeg that ignores SIGTERM is SIGKILLed and replaced after the backoff', async () => {
    const t = setup();
    await settle();
    await stream(t, 3_000);
    t.runner.ignoreSigterm = true;
    const stalled = t.runner.last;
    await t.clock.advance(5_000);
    expect(stalled.signals).toEqual(['SIGKILL']);
    expect(latest(t.sink)).toMatchObject({ actual: 'restarting', lastError: 'stalled: no progress from ffmpeg for 5 s', restarts: 0 });
    await t.clock.advance(1_000);
    expect(t.runner.processes).toHaveLength(2);
    await stream(t, 1_000);
    expect(latest(t.sink)).toMatchObject({ actual: 'started', restarts: 1 });
    t.supervisor.stop();
    await t.clock.advance(2_000);
    expect(await t.exitCode).toBe(0);
  });

  test('SIGTERM of the task while ffmpeg is blocked: SIGTERM to ffmpeg, SIGKILL 2 s later, exit code 0', async () => {
    const t = setup();
    await settle();
    await stream(t, 2_000);
    t.runner.ignoreSigterm = true;
    t.supervisor.stop();
    await settle();
    expect(t.runner.last.signals).toEqual(['SIGTERM']);
    expect(latest(t.sink)).toMatchObject({ desired: 'stopped', actual: 'stopping' });
    await t.clock.advance(2_000);
    expect(t.runner.last.signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(await t.exitCode).toBe(0);
    expect(latest(t.sink)).toMatchObject({ desired: 'stopped', actual: 'stopped' });
    expect(t.supervisor.ffmpegPids).toEqual([]);
  });

  test('at the start, each destination is asked once a task which RTMP chunk size it declares; a plain RTMP one that declares none is published through a relay', async () => {
    const facebook = { id: 'fb', url: 'rtmps://live-api-s.facebook.com:443/rtmp/SECRET-KEY-3' };
    const probe = new FakeProbe();
    probe.chunkSizes.set(youtube.url, null);
    probe.chunkSizes.set(twitch.url, 4096);
    probe.chunkSizes.set(facebook.url, null);
    const t = setup({ destinations: [youtube, twitch, facebook], probe });
    await settle();
    // Asked beside the preparation, so the first ffmpeg already publishes through the relay.
    expect(probe.chunkSizesAsked).toEqual([youtube.url, twitch.url, facebook.url]);
    expect(t.logs).toEqual(
      expect.arrayContaining([
        'destination yt declares no RTMP chunk size: published through a relay that has ffmpeg send it 4096-byte chunks',
        'destination tw declares RTMP chunk size 4096',
        'destination fb declares no RTMP chunk size: ffmpeg sends it 128-byte chunks, several times the CPU of 4096 and over RTMPS a third more bytes (docs/decisions.md)',
      ]),
    );
    const slaves = t.runner.last.args.at(-1)!.split('|');
    // The YouTube slave publishes to the relay on loopback, told YouTube's tcUrl (escaped twice: as the option's
    // value, then in the tee's list); the others go straight to their destinations.
    expect(slaves[0]).toContain('rtmp_tcurl=rtmp\\\\://a.rtmp.youtube.com\\\\:1935/live2:tcp_nodelay=1');
    const relayed = /\]rtmp:\/\/127\.0\.0\.1:(\d+)\/live2\/SECRET-KEY-1$/.exec(slaves[0]!);
    expect(relayed).not.toBeNull();
    expect(slaves[1]).toMatch(/\]rtmp:\/\/live\.twitch\.tv\/app\/SECRET-KEY-2$/);
    expect(slaves[2]).toMatch(/\]rtmps:\/\/live-api-s\.facebook\.com:443\/rtmp\/SECRET-KEY-3$/);
    await stream(t, 2_000);
    expect(probe.chunkSizesAsked).toHaveLength(3); // once a task, not again when on air
    expect(t.logs.join('\n')).not.toContain('SECRET-KEY');
    // The relay listens for as long as the task runs.
    const port = Number(relayed![1]);
    expect(await listening(port)).toBe(true);
    t.supervisor.stop();
    await t.clock.advance(2_000);
    expect(await t.exitCode).toBe(0);
    expect(await listening(port)).toBe(false);
  });

  test('exit with the reason from stderr; stream keys never reach heartbeats or logs', async () => {
    const t = setup({ destinations: [youtube, twitch] });
    await settle();
    await stream(t, 1_000);
    t.runner.last.stderr(`[tee @ 0x55689f7c6340] Slave '[f=flv:onfail=ignore]${twitch.url}': error opening: Connection refused`);
    t.runner.last.stderr('[tee @ 0x55689f7c6340] Slave muxer #1 failed: Connection refused, continuing with 1/2 slaves.');
    await settle();
    expect(latest(t.sink)).toMatchObject({
      actual: 'started',
      lastError: 'destination tw failed: Connection refused',
      destinations: [
        { id: 'yt', state: 'ok' },
        { id: 'tw', state: 'failed' },
      ],
    });
    t.runner.last.stderr(`[flv @ 0x1] Error writing to ${youtube.url}: Broken pipe`);
    t.runner.last.exit({ code: 1, signal: null });
    await settle();
    expect(latest(t.sink).lastError).toBe('ffmpeg exited with code 1: Error writing to rtmp://a.rtmp.youtube.com/live2/***: Broken pipe');
    const everything = JSON.stringify(t.sink.heartbeats) + t.logs.join('\n');
    expect(everything).not.toContain('SECRET');
    t.supervisor.stop();
    expect(await t.exitCode).toBe(0);
  });

  test('an RTMPS destination whose certificate the probe refused: ffmpeg gets it with verification on, and its failure says why', async () => {
    const facebook = { id: 'fb', url: 'rtmps://live-api-s.facebook.com:443/rtmp/SECRET-KEY-3' };
    const t = setup({ destinations: [youtube, facebook], tls: { caFile: '/data/tls/ca.crt' } });
    t.probe.refusing.set(facebook.url, 'the certificate is not for this server name (Host: live-api-s.facebook.com)');
    await settle();
    const args = t.runner.last.args.join(' ');
    // The RTMPS slave verifies (its own options, which the tee hands to the fifo's output); the RTMP one has none.
    expect(args).toContain(
      ':tls_verify=1:ca_file=/data/tls/ca.crt:use_fifo=1:fifo_options=drop_pkts_on_overflow=1\\\\:queue_size=360]rtmps://live-api-s.facebook.com',
    );
    expect(args.match(/tls_verify/g)).toHaveLength(1);
    await stream(t, 1_000);
    t.runner.last.stderr('[tee @ 0x55689f7c6340] Slave muxer #1 failed: Input/output error, continuing with 1/2 slaves.');
    await settle();
    expect(latest(t.sink)).toMatchObject({
      lastError: 'destination fb failed: destination certificate refused (the certificate is not for this server name (Host: live-api-s.facebook.com))',
      destinations: [
        { id: 'yt', state: 'ok' },
        { id: 'fb', state: 'failed' },
      ],
    });
    t.supervisor.stop();
    expect(await t.exitCode).toBe(0);
  });

  test('a single RTMPS destination with a refused certificate: ffmpeg exits and the reason is the certificate', async () => {
    const kick = { id: 'kick', url: 'rtmps://fa723fc1b171.global-contribute.live-video.net/app/SECRET-KEY-4' };
    const t = setup({ destinations: [kick], tls: {} });
    t.probe.refusing.set(kick.url, 'the certificate could not be verified (SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain)');
    await settle();
    expect(t.runner.last.args).toEqual(expect.arrayContaining(['-tls_verify', '1']));
    expect(t.runner.last.args).not.toContain('-ca_file');
    t.runner.last.stderr('[tls @ 0x1] Peer certificate failed verification');
    t.runner.last.stderr(`${kick.url}: Input/output error`);
    t.runner.last.exit({ code: 1, signal: null });
    await settle();
    expect(latest(t.sink)).toMatchObject({
      actual: 'restarting',
      lastError:
        'ffmpeg exited with code 1: destination certificate refused (the certificate could not be verified (SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain))',
      destinations: [{ id: 'kick', state: 'failed' }],
    });
    t.supervisor.stop();
    expect(await t.exitCode).toBe(0);
  });

  test('a destination that is down is probed each second and ffmpeg respawned as soon as it is back', async () => {
    const t = setup();
    await settle();
    await stream(t, 1_000);
    t.probe.answering = false;
    t.runner.last.exit({ code: 1, signal: null });
    // Several failures in a row: the backoff has grown to 8 s.
    for (let i = 0; i < 3; i += 1) {
      await t.clock.advance(t.supervisor.state.respawnAt! - t.clock.now());
      t.runner.last.exit({ code: 1, signal: null });
      await settle();
    }
    expect(t.supervisor.state.respawnAt! - t.clock.now()).toBe(8_000);
    const spawned = t.runner.processes.length;
    await t.clock.advance(3_000);
    expect(t.runner.processes).toHaveLength(spawned);
    t.probe.answering = true;
    await t.clock.advance(1_000);
    expect(t.runner.processes).toHaveLength(spawned + 1);
    expect(t.probe.asked.at(-1)).toBe(youtube.url);
    t.supervisor.stop();
    expect(await t.exitCode).toBe(0);
  });

  test('inputs that cannot be prepared: a failed heartbeat and exit code 1', async () => {
    const t = setup({
      prepare: async () => {
        throw new Error('cannot fetch s3://media/x: no such object');
      },
    });
    expect(await t.exitCode).toBe(1);
    expect(latest(t.sink)).toMatchObject({ actual: 'failed', desired: 'running', lastError: 'inputs not ready: cannot fetch s3://media/x: no such object' });
    expect(t.runner.processes).toEqual([]);
  });

  test('stop while the inputs are still downloading aborts the download', async () => {
    let aborted = false;
    const t = setup({
      prepare: (signal) =>
        new Promise<PreparedMedia>((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
    });
    await settle();
    t.supervisor.stop();
    expect(await t.exitCode).toBe(0);
    expect(aborted).toBe(true);
    expect(latest(t.sink)).toMatchObject({ actual: 'stopped' });
  });

  test('a failing heartbeat sink is logged and does not disturb streaming', async () => {
    const failing: HeartbeatSink = { send: async () => Promise.reject(new Error('ProvisionedThroughputExceededException')) };
    const t = setup({ sink: failing });
    await settle();
    await stream(t, 1_000);
    expect(t.supervisor.state.actual).toBe('started');
    expect(t.logs).toContain('heartbeat not sent: ProvisionedThroughputExceededException');
    t.supervisor.stop();
    expect(await t.exitCode).toBe(0);
  });
});
