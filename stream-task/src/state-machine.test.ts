import type { ProgressBlock } from './progress';
import { defaultPolicy, destinationStates, initialState, step, type Command, type MachineEvent, type MachineState } from './state-machine';

const T0 = Date.parse('2025-06-01T11:00:00Z');
const inputs = { loopDurationUs: 6_000_000, inputBitrateKbps: 2_000 };

/**
 * Drives the pure machine with a virtual clock, as the shell does: events plus a tick every 250 ms. The handshake
 * probe before each spawn is answered at once by the destinations in `answering` (all of them by default).
 */
class Harness {
  state: MachineState;
  now = T0;
  commands: Command[] = [];
  /** Output time of the current run's latest progress block. */
  outTimeUs = 0;
  answering?: string[];

  constructor(options: { destinations?: string[]; restartTimes?: string[]; random?: number } = {}) {
    this.random = options.random ?? 0.5;
    this.state = initialState(
      { destinationIds: options.destinations ?? ['yt'], restartTimes: options.restartTimes ?? [], timeZone: 'UTC', policy: defaultPolicy },
      this.now,
    );
  }

  private readonly random: number;

  send(event: MachineEvent): Command[] {
    const result = step(this.state, event, { now: this.now, random: this.random });
    this.state = result.state;
    this.commands.push(...result.commands);
    const commands = [...result.commands];
    for (const command of result.commands) {
      if (command.type === 'probe' && this.state.checking?.seq === command.seq) {
        commands.push(...this.send({ type: 'probed', seq: command.seq, answering: this.answering ?? command.destinationIds }));
      }
    }
    return commands;
  }

  /** Moves the clock in 250 ms ticks, calling `each` (e.g. to emit progress) before every tick. */
  advance(ms: number, each?: () => void): void {
    const end = this.now + ms;
    while (this.now < end) {
      this.now = Math.min(end, this.now + 250);
      each?.();
      this.send({ type: 'tick' });
    }
  }

  /** Commands since the last call. */
  take(): Command[] {
    const taken = this.commands;
    this.commands = [];
    return taken;
  }

  runId(): number {
    return this.state.run!.id;
  }

  progress(block: Partial<ProgressBlock> = {}): void {
    this.send({ type: 'progress', runId: this.runId(), block: { frame: 1, outTimeUs: this.outTimeUs, progress: 'continue', ...block } });
  }

  /** ffmpeg at real time: a block every 500 ms with the output time moving as fast as the clock. */
  flowing(ms: number, speed = 1): void {
    let sinceBlock = 0;
    this.advance(ms, () => {
      sinceBlock += 250;
      if (sinceBlock >= 500) {
        sinceBlock = 0;
        this.outTimeUs += 500_000 * speed;
        this.progress();
      }
    });
  }

  /** Prepared, spawned and media flowing: actual 'started'. */
  startStreaming(): void {
    this.send({ type: 'prepared', inputs });
    this.outTimeUs = 0;
    this.flowing(1_000);
  }

  exit(detail = 'exited with code 1: Connection refused'): void {
    this.send({ type: 'exited', runId: this.runId(), detail });
    this.outTimeUs = 0;
  }

  types(commands: Command[]): string[] {
    return commands.map((c) => (c.type === 'kill' ? `kill ${c.signal}` : c.type));
  }
}

describe('stream-task state machine', () => {
  test('starts: preparing, then a first ffmpeg run, started once the output time moves', () => {
    const h = new Harness();
    expect(h.state).toMatchObject({ desired: 'running', actual: 'starting', preparing: true });
    expect(h.send({ type: 'prepared', inputs })).toEqual([
      { type: 'probe', seq: 1, destinationIds: ['yt'] },
      { type: 'spawn', runId: 1, destinationIds: ['yt'] },
    ]);
    expect(h.state.run?.id).toBe(1);
    h.progress({ frame: 1, outTimeUs: 0 });
    expect(h.state.actual).toBe('starting');
    h.now += 500;
    expect(h.types(h.send({ type: 'progress', runId: 1, block: { frame: 16, outTimeUs: 534_000, progress: 'continue' } }))).toEqual(['report']);
    expect(h.state).toMatchObject({ actual: 'started', startedAt: h.now, since: h.now, restarts: 0 });
  });

  test('inputs that cannot be prepared fail the task with exit code 1', () => {
    const h = new Harness();
    expect(h.send({ type: 'prepareFailed', error: 'inputs not ready: no such object' })).toEqual([{ type: 'finish', exitCode: 1 }, { type: 'report' }]);
    expect(h.state).toMatchObject({ actual: 'failed', lastError: 'inputs not ready: no such object', finished: true });
    expect(h.send({ type: 'tick' })).toEqual([]);
  });

  test('a stop while the inputs are being fetched aborts the fetch and ends at once', () => {
    const h = new Harness();
    expect(h.types(h.send({ type: 'stop' }))).toEqual(['abortPreparation', 'finish', 'report']);
    expect(h.state).toMatchObject({ desired: 'stopped', actual: 'stopped' });
    expect(h.send({ type: 'prepared', inputs })).toEqual([]);
  });

  test('ffmpeg exiting is restarted after 1 s, then 2 s, 4 s... capped at 30 s', () => {
    const h = new Harness();
    h.startStreaming();
    const delays: number[] = [];
    for (let failure = 0; failure < 7; failure += 1) {
      h.exit();
      expect(h.state.actual).toBe('restarting');
      const failedAt = h.now;
      h.take();
      while (!h.take().some((c) => c.type === 'spawn')) h.advance(250);
      delays.push(h.now - failedAt);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(h.state).toMatchObject({ actual: 'starting', restarts: 7, lastError: 'ffmpeg exited with code 1: Connection refused' });
  });

  test('the jitter spreads each delay over 80-120 %', () => {
    for (const [random, delay] of [
      [0, 800],
      [0.999, 1_200],
    ] as const) {
      const h = new Harness({ random });
      h.startStreaming();
      h.exit();
      expect(h.state.respawnAt! - h.now).toBe(delay);
    }
  });

  test('a minute of healthy streaming resets the backoff to 1 s', () => {
    const h = new Harness();
    h.startStreaming();
    for (let i = 0; i < 4; i += 1) {
      h.exit();
      h.advance(h.state.respawnAt! - h.now);
      h.flowing(1_000);
    }
    expect(h.state.failureStreak).toBe(4);
    h.flowing(60_000);
    expect(h.state.failureStreak).toBe(0);
    h.exit();
    expect(h.state.respawnAt! - h.now).toBe(1_000);
  });

  test('no progress for 5 s is a stall: SIGKILL (a blocked ffmpeg ignores SIGTERM), then restart', () => {
    const h = new Harness();
    h.startStreaming();
    h.take();
    h.advance(4_750);
    expect(h.take()).toEqual([]);
    h.advance(250);
    expect(h.types(h.take())).toEqual(['kill SIGKILL', 'probe', 'report']);
    expect(h.state).toMatchObject({ actual: 'restarting', lastError: 'stalled: no progress from ffmpeg for 5 s' });
    h.advance(1_000);
    expect(h.types(h.take())).toEqual([]); // the old run has not exited yet: no second ffmpeg on the same key
    h.exit('was killed by SIGKILL');
    expect(h.types(h.take())).toEqual(['probe', 'spawn', 'report']);
    expect(h.state).toMatchObject({ restarts: 1, lastError: 'stalled: no progress from ffmpeg for 5 s' });
  });

  test('progress blocks without the output time moving are a stall too', () => {
    const h = new Harness();
    h.startStreaming();
    h.flowing(5_000, 0);
    expect(h.state).toMatchObject({ actual: 'restarting', lastError: 'stalled: output time did not advance for 5 s' });
  });

  test('speed below 0.8x sustained for 15 s is restarted; 0.85x (a busy machine reading progress late) is not', () => {
    const fine = new Harness();
    fine.startStreaming();
    fine.flowing(60_000, 0.85);
    expect(fine.state).toMatchObject({ actual: 'started', restarts: 0 });

    const slow = new Harness();
    slow.startStreaming();
    slow.flowing(14_000, 0.6);
    expect(slow.state.actual).toBe('started');
    slow.flowing(3_000, 0.6);
    expect(slow.state.actual).toBe('restarting');
    expect(slow.state.lastError).toMatch(/^too slow: speed 0\.[56]\dx below 0\.8x for 15 s$/);
  });

  test('no media within 15 s of spawning (a destination that accepts TCP but never answers) is given up', () => {
    const h = new Harness();
    h.send({ type: 'prepared', inputs });
    h.take();
    h.advance(14_750);
    expect(h.state.actual).toBe('starting');
    h.advance(250);
    expect(h.types(h.take())).toEqual(['kill SIGKILL', 'probe', 'report']);
    expect(h.state.lastError).toBe('no media within 15 s of starting ffmpeg');
  });

  test('ffmpeg killed from outside (kill -9) counts as a failure and is restarted', () => {
    const h = new Harness();
    h.startStreaming();
    h.exit('was killed by SIGKILL');
    expect(h.state).toMatchObject({ actual: 'restarting', lastError: 'ffmpeg was killed by SIGKILL' });
    h.advance(1_000);
    expect(h.state).toMatchObject({ actual: 'starting', restarts: 1 });
  });

  test('stop: SIGTERM, SIGKILL after 2 s if ffmpeg is blocked, stopped with exit code 0 once it is gone', () => {
    const h = new Harness();
    h.startStreaming();
    h.take();
    expect(h.types(h.send({ type: 'stop' }))).toEqual(['kill SIGTERM', 'report']);
    expect(h.state).toMatchObject({ desired: 'stopped', actual: 'stopping' });
    h.take();
    h.advance(1_750);
    expect(h.take()).toEqual([]);
    h.advance(250);
    expect(h.types(h.take())).toEqual(['kill SIGKILL']);
    h.exit('was killed by SIGKILL');
    expect(h.types(h.take())).toEqual(['finish', 'report']);
    expect(h.state).toMatchObject({ actual: 'stopped', restarts: 0 });
  });

  test('stop while waiting to restart ends at once; a second stop changes nothing', () => {
    const h = new Harness();
    h.startStreaming();
    h.exit();
    h.take();
    expect(h.types(h.send({ type: 'stop' }))).toEqual(['finish', 'report']);
    expect(h.send({ type: 'stop' })).toEqual([]);
    h.take();
    h.advance(5_000);
    expect(h.take()).toEqual([]);
  });

  test('a restart time rotates ffmpeg on time: SIGTERM, the next run at once, counted apart from failures', () => {
    const h = new Harness({ restartTimes: ['11:00', '12:00'] });
    expect(new Date(h.state.scheduledRestartAt!).toISOString()).toBe('2025-06-01T12:00:00.000Z');
    h.startStreaming();
    h.take();
    h.flowing(Date.parse('2025-06-01T12:00:00Z') - h.now - 250);
    expect(h.state.actual).toBe('started');
    h.flowing(250);
    expect(h.types(h.take())).toEqual(['kill SIGTERM', 'report']);
    expect(h.state.actual).toBe('restarting');
    expect(new Date(h.state.scheduledRestartAt!).toISOString()).toBe('2025-06-02T11:00:00.000Z');
    h.exit('exited with code 255');
    expect(h.types(h.take())).toEqual(['probe', 'spawn', 'report']);
    expect(h.state).toMatchObject({ actual: 'starting', restarts: 0, scheduledRestarts: 1 });
    expect(h.state.lastError).toBeUndefined();
  });

  test('a restart time while ffmpeg is down is skipped and the next one planned', () => {
    const h = new Harness({ restartTimes: ['11:00', '11:30'] });
    h.startStreaming();
    h.flowing(Date.parse('2025-06-01T11:29:59Z') - h.now);
    h.exit();
    h.advance(1_000);
    expect(h.state).toMatchObject({ scheduledRestarts: 0, actual: 'starting' });
    expect(new Date(h.state.scheduledRestartAt!).toISOString()).toBe('2025-06-02T11:00:00.000Z');
  });

  test('one failed destination of several: the others go on, a retry restart after 30 s brings it back', () => {
    const h = new Harness({ destinations: ['yt', 'twitch'] });
    h.startStreaming();
    h.take();
    h.send({ type: 'destinationFailed', runId: h.runId(), destinationId: 'twitch', reason: 'Connection reset by peer' });
    expect(h.state).toMatchObject({ actual: 'started', lastError: 'destination twitch failed: Connection reset by peer' });
    expect(h.state.run!.failedDestinations).toEqual(['twitch']);
    h.flowing(29_750);
    expect(h.state.actual).toBe('started');
    // Probing the failed destination meanwhile: reachable all along, so no early retry.
    expect(h.take().filter((c) => c.type === 'probe')).toEqual([{ type: 'probe', seq: expect.any(Number), destinationIds: ['twitch'] }]);
    h.send({ type: 'probed', seq: h.state.watch!.seq, answering: ['twitch'] });
    h.flowing(250);
    expect(h.types(h.take())).toEqual(['kill SIGTERM', 'report']);
    h.exit('exited with code 255');
    expect(h.state).toMatchObject({ actual: 'starting', restarts: 1 });
  });

  test('a destination whose queue fills up: SIGKILL, and the next run gets only the destinations that answer', () => {
    const h = new Harness({ destinations: ['yt', 'twitch'] });
    h.startStreaming();
    h.take();
    h.send({ type: 'destinationBlocked', runId: h.runId() });
    expect(h.types(h.take())).toEqual(['kill SIGKILL', 'probe', 'report']);
    expect(h.state).toMatchObject({ actual: 'restarting', lastError: 'a destination stopped accepting data (its queue filled up)' });
    h.send({ type: 'destinationBlocked', runId: h.runId() }); // the same run again: nothing more
    expect(h.take()).toEqual([]);
    h.exit('was killed by SIGKILL');
    h.answering = ['yt']; // the frozen server no longer answers the handshake
    h.advance(1_250);
    expect(h.take().find((c) => c.type === 'spawn')).toEqual({ type: 'spawn', runId: 2, destinationIds: ['yt'] });
    expect(h.state).toMatchObject({ restarts: 1, lastError: 'destination twitch did not answer the RTMP handshake' });
  });

  test('a failed destination that comes back (unreachable, then reachable) is retried at once', () => {
    const h = new Harness({ destinations: ['yt', 'twitch'] });
    h.startStreaming();
    h.send({ type: 'destinationFailed', runId: h.runId(), destinationId: 'twitch', reason: 'Connection refused' });
    h.take();
    h.flowing(5_000);
    const probe = h.take().find((c) => c.type === 'probe');
    expect(probe).toBeDefined();
    h.send({ type: 'probed', seq: h.state.watch!.seq, answering: [] });
    h.flowing(5_000);
    h.send({ type: 'probed', seq: h.state.watch!.seq, answering: ['twitch'] });
    expect(h.state.actual).toBe('restarting');
  });

  test('only destinations that answer the RTMP handshake go to ffmpeg; the others are retried once they answer', () => {
    const h = new Harness({ destinations: ['yt', 'twitch', 'kick'] });
    h.answering = ['yt', 'kick'];
    h.send({ type: 'prepared', inputs });
    expect(h.take().find((c) => c.type === 'spawn')).toEqual({ type: 'spawn', runId: 1, destinationIds: ['yt', 'kick'] });
    expect(h.state).toMatchObject({ lastError: 'destination twitch did not answer the RTMP handshake' });
    h.flowing(1_000);
    expect(h.state.actual).toBe('started');
    expect(destinationStates(h.state)).toEqual([
      { id: 'yt', state: 'ok' },
      { id: 'twitch', state: 'failed' },
      { id: 'kick', state: 'ok' },
    ]);
    h.flowing(4_000);
    const probe = h.take().find((c) => c.type === 'probe');
    expect(probe).toMatchObject({ destinationIds: ['twitch'] });
    h.send({ type: 'probed', seq: h.state.watch!.seq, answering: [] });
    h.flowing(5_000);
    h.answering = undefined;
    h.send({ type: 'probed', seq: h.state.watch!.seq, answering: ['twitch'] });
    expect(h.state.actual).toBe('restarting');
    h.exit('exited with code 255');
    expect(h.take().find((c) => c.type === 'spawn')).toEqual({ type: 'spawn', runId: 2, destinationIds: ['yt', 'twitch', 'kick'] });
  });

  test('no destination answers: no ffmpeg at all; probed each second and spawned as soon as one answers', () => {
    const h = new Harness();
    h.answering = [];
    h.send({ type: 'prepared', inputs });
    expect(h.types(h.take())).toEqual(['probe', 'report']);
    expect(h.state).toMatchObject({ actual: 'restarting', lastError: 'no destination answered the RTMP handshake' });
    expect(h.state.run).toBeUndefined();
    h.advance(1_000); // the backoff (1 s): probed again before spawning, still no answer; now 2 s of backoff
    expect(h.types(h.take())).toEqual(['probe']);
    expect(h.state.respawnAt! - h.now).toBe(2_000);
    h.advance(1_000); // the watch probes each second meanwhile
    const probe = h.take().find((c): c is Extract<Command, { type: 'probe' }> => c.type === 'probe');
    h.answering = undefined;
    expect(h.types(h.send({ type: 'probed', seq: probe!.seq, answering: ['yt'] }))).toEqual(['probe', 'spawn', 'report']);
    expect(h.state).toMatchObject({ actual: 'starting', restarts: 1 });
  });

  test('all destinations down: probe each second; when one is back, spawn at once instead of waiting the backoff', () => {
    const h = new Harness();
    h.startStreaming();
    for (let i = 0; i < 5; i += 1) {
      h.exit();
      h.advance(h.state.respawnAt! - h.now);
    }
    h.take();
    h.exit();
    expect(h.state.respawnAt! - h.now).toBe(30_000);
    const probes = () => h.take().filter((c): c is Extract<Command, { type: 'probe' }> => c.type === 'probe');
    let [probe] = probes();
    expect(probe).toMatchObject({ destinationIds: ['yt'] });
    h.send({ type: 'probed', seq: probe!.seq, answering: [] });
    h.advance(750);
    expect(probes()).toEqual([]);
    h.advance(250);
    [probe] = probes();
    h.send({ type: 'probed', seq: probe!.seq, answering: [] });
    h.advance(1_000);
    [probe] = probes();
    expect(h.types(h.send({ type: 'probed', seq: probe!.seq, answering: ['yt'] }))).toEqual(['probe', 'spawn', 'report']);
    expect(h.state.actual).toBe('starting');
  });

  test('a destination reachable at once does not shorten the backoff (the failure was not the network)', () => {
    const h = new Harness();
    h.startStreaming();
    h.take();
    h.exit('exited with code 1: Input/output error');
    const probe = h.take().find((c) => c.type === 'probe') as Extract<Command, { type: 'probe' }>;
    expect(h.send({ type: 'probed', seq: probe.seq, answering: ['yt'] })).toEqual([]);
    expect(h.state.actual).toBe('restarting');
    expect(h.state.watch).toBeUndefined();
  });

  test('events of an earlier run and stale probe answers are ignored', () => {
    const h = new Harness();
    h.startStreaming();
    const first = h.runId();
    const stale = h.state.probeSeq;
    h.exit();
    h.advance(1_000);
    expect(h.runId()).toBe(first + 1);
    expect(h.send({ type: 'progress', runId: first, block: { frame: 99, outTimeUs: 99_000_000, progress: 'continue' } })).toEqual([]);
    expect(h.send({ type: 'exited', runId: first, detail: 'exited with code 0' })).toEqual([]);
    expect(h.send({ type: 'probed', seq: stale, answering: ['yt'] })).toEqual([]);
    expect(h.state.actual).toBe('starting');
  });

  test('loops add up over runs', () => {
    const h = new Harness();
    h.startStreaming();
    h.flowing(12_000);
    expect(h.state.actual).toBe('started');
    h.exit();
    h.advance(1_000);
    h.flowing(7_000);
    // 13 s of output in the first run (2 whole loops of 6 s), 7 s in the second (1 loop).
    expect(h.state.loopsBefore).toBe(2);
    expect(h.state.run!.health.outTimeUs).toBe(7_000_000);
  });
});
