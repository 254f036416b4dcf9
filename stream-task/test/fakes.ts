// Test doubles for the supervisor's shell: a virtual clock and scriptable child processes.
import type { ChildHandle, ChildHandlers, Clock, ProcessRunner, ProbeResult, ReachabilityProbe } from '../src/runtime';

export class FakeClock implements Clock {
  private timers: { every: number; next: number; fn: () => void; cancelled: boolean }[] = [];

  constructor(public current = Date.parse('2025-06-01T11:00:00Z')) {}

  now(): number {
    return this.current;
  }

  every(ms: number, fn: () => void): () => void {
    const timer = { every: ms, next: this.current + ms, fn, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Moves time forward, firing due timers in order; awaits pending promises between steps. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => !t.cancelled && t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      this.current = due.next;
      due.next += due.every;
      due.fn();
      await settle();
    }
    this.current = end;
    await settle();
  }
}

/** Lets promise callbacks and I/O callbacks that are already due run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FakeProcess implements ChildHandle {
  readonly signals: NodeJS.Signals[] = [];
  exited = false;

  constructor(
    readonly pid: number,
    readonly command: string,
    readonly args: readonly string[],
    private readonly handlers: ChildHandlers,
    /** A blocked ffmpeg ignores SIGTERM. */
    private readonly ignoresSigterm: () => boolean,
  ) {}

  kill(signal: NodeJS.Signals): void {
    this.signals.push(signal);
    if (signal === 'SIGTERM' && this.ignoresSigterm()) return;
    this.exit({ code: signal === 'SIGTERM' ? 255 : null, signal: signal === 'SIGTERM' ? null : signal });
  }

  stdout(text: string): void {
    for (const line of text.split('\n')) this.handlers.onStdoutLine(line);
  }

  stderr(line: string): void {
    this.handlers.onStderrLine(line);
  }

  /** One progress block as ffmpeg prints it. */
  progress(outTimeUs: number, frame = Math.round(outTimeUs / 33_333)): void {
    this.stdout(`frame=${frame}\nfps=30.00\nbitrate=N/A\ntotal_size=N/A\nout_time_us=${outTimeUs}\nspeed=1.00x\nprogress=continue`);
  }

  exit(result: { code: number | null; signal: NodeJS.Signals | null }): void {
    if (this.exited) return;
    this.exited = true;
    this.handlers.onExit(result);
  }
}

export class FakeRunner implements ProcessRunner {
  readonly processes: FakeProcess[] = [];
  ignoreSigterm = false;

  spawn(command: string, args: readonly string[], handlers: ChildHandlers): FakeProcess {
    const process = new FakeProcess(1000 + this.processes.length, command, args, handlers, () => this.ignoreSigterm);
    this.processes.push(process);
    return process;
  }

  get last(): FakeProcess {
    const last = this.processes.at(-1);
    if (!last) throw new Error('no process spawned yet');
    return last;
  }
}

export class FakeProbe implements ReachabilityProbe {
  /** Whether the destinations answer the RTMP handshake. */
  answering = true;
  /** Destinations (by URL) whose TLS certificate is refused, and why. */
  readonly refusing = new Map<string, string>();
  readonly asked: string[] = [];
  /** The RTMP chunk size each destination (by URL) declares; not there: it could not be asked. */
  readonly chunkSizes = new Map<string, number | null>();
  readonly chunkSizesAsked: string[] = [];

  async declaredChunkSize(url: string): Promise<number | null | undefined> {
    this.chunkSizesAsked.push(url);
    return this.chunkSizes.get(url);
  }

  async probe(url: string): Promise<ProbeResult> {
    this.asked.push(url);
    const refused = this.refusing.get(url);
    return refused ? { answers: false, certificateRefused: refused } : { answers: this.answering };
  }
}
