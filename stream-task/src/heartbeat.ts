// Heartbeats: what the stream is doing, sent every ~10 s and at once on every change. The sink is an interface:
// DynamoDB in AWS (written by the lifecycle side), JSON lines on stdout for local runs, memory in tests.
import type { Writable } from 'node:stream';
import type { Heartbeat } from '../../lambdas/contract/stream-task';
import { runMetrics } from './health';
import type { LogFn } from './log';
import { destinationStates, totalLoops, type MachineState } from './state-machine';

export interface HeartbeatSink {
  send(heartbeat: Heartbeat): Promise<void>;
}

export function heartbeatOf(streamId: string, state: MachineState, now: number): Heartbeat {
  const inputs = state.inputs;
  const metrics =
    state.actual === 'started' && state.run && inputs
      ? runMetrics(state.run.health, now, state.config.policy.health, inputs.inputBitrateKbps)
      : { fps: 0, speed: 0, bitrateKbps: 0 };
  return {
    streamId,
    desired: state.desired,
    actual: state.actual,
    since: new Date(state.since).toISOString(),
    uptimeSeconds: state.startedAt === undefined ? 0 : Math.floor((now - state.startedAt) / 1000),
    ...metrics,
    loops: totalLoops(state),
    restarts: state.restarts,
    scheduledRestarts: state.scheduledRestarts,
    ...(state.scheduledRestartAt === undefined ? {} : { nextRestartAt: new Date(state.scheduledRestartAt).toISOString() }),
    ...(state.lastError === undefined ? {} : { lastError: state.lastError }),
    destinations: destinationStates(state),
    at: new Date(now).toISOString(),
  };
}

/** Keeps every heartbeat; tests wait on it. */
export class InMemoryHeartbeatSink implements HeartbeatSink {
  readonly heartbeats: Heartbeat[] = [];
  private waiters: { predicate: (h: Heartbeat) => boolean; resolve: (h: Heartbeat) => void }[] = [];

  async send(heartbeat: Heartbeat): Promise<void> {
    this.heartbeats.push(heartbeat);
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.predicate(heartbeat)) return true;
      waiter.resolve(heartbeat);
      return false;
    });
  }

  latest(): Heartbeat | undefined {
    return this.heartbeats.at(-1);
  }

  /** The first heartbeat from now on (or the latest one already sent) that matches. */
  waitFor(predicate: (h: Heartbeat) => boolean, timeoutMs: number, what = 'a matching heartbeat'): Promise<Heartbeat> {
    const latest = this.latest();
    if (latest && predicate(latest)) return Promise.resolve(latest);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`no heartbeat with ${what} within ${timeoutMs} ms; latest: ${JSON.stringify(this.latest())}`));
      }, timeoutMs);
      const done = (h: Heartbeat) => {
        clearTimeout(timer);
        resolve(h);
      };
      this.waiters.push({ predicate, resolve: done });
    });
  }
}

/** One JSON object per line, for a local parent process (or a person) reading the task's stdout. */
export class JsonLinesHeartbeatSink implements HeartbeatSink {
  constructor(private readonly out: Writable = process.stdout) {}

  send(heartbeat: Heartbeat): Promise<void> {
    return new Promise((resolve, reject) => this.out.write(`${JSON.stringify(heartbeat)}\n`, (error) => (error ? reject(error) : resolve())));
  }
}

/** Parses one line of a JsonLinesHeartbeatSink's output; undefined for anything else. */
export function parseHeartbeatLine(line: string): Heartbeat | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line) as Partial<Heartbeat>;
    return typeof value.streamId === 'string' && typeof value.actual === 'string' ? (value as Heartbeat) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends heartbeats one at a time and in order: while one is in flight only the newest waiting one is kept, so a
 * slow sink (DynamoDB throttling) never sees an older state after a newer one. A failing sink is logged, not fatal.
 */
export class HeartbeatPublisher {
  private inFlight?: Promise<void>;
  private waiting?: Heartbeat;

  constructor(
    private readonly sink: HeartbeatSink,
    private readonly log: LogFn,
  ) {}

  publish(heartbeat: Heartbeat): void {
    this.waiting = heartbeat;
    if (!this.inFlight) this.inFlight = this.drain();
  }

  /** Resolves when every published heartbeat has been handed to the sink. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  private async drain(): Promise<void> {
    while (this.waiting) {
      const next = this.waiting;
      this.waiting = undefined;
      try {
        await this.sink.send(next);
      } catch (error) {
        this.log(`heartbeat not sent: ${(error as Error).message}`, 'warn');
      }
    }
    this.inFlight = undefined;
  }
}
