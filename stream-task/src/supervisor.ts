// The imperative shell around the state machine: feeds it events (ffmpeg's progress and exit, a tick every
// 250 ms, probe results, stop) and carries out its commands (spawn, kill, probe, heartbeat, finish).
import type { ErrorKey } from '../../lambdas/core/errors';
import { needsRelay, startChunkRelay, type ChunkRelay } from './chunk-relay';
import { chunkSizeReport, cleanStderrLine, ffmpegArgs, teeQueueFull, teeSlaveFailure, type Destination, type FfmpegInputs, type TlsTrust } from './ffmpeg';
import { feedFlv, type JoinReport } from './feeder';
import { HeartbeatPublisher, heartbeatOf, type HeartbeatSink } from './heartbeat';
import type { LogFn } from './log';
import type { PlaylistPlayback, PreparedMedia } from './media';
import { ProgressParser } from './progress';
import type { StartupTimeline } from './startup';
import {
  childProcessRunner,
  destinationCaFile,
  dialDestination,
  publicAddressesOnly,
  rtmpHandshakeProbe,
  systemClock,
  type ChildHandle,
  type Clock,
  type ProbeResult,
  type ProcessRunner,
  type ReachabilityProbe,
} from './runtime';
import { defaultPolicy, initialState, step, type Command, type MachineEvent, type MachineState, type SupervisorPolicy } from './state-machine';

export interface StreamSupervisorOptions {
  streamId: string;
  destinations: readonly Destination[];
  /** Normalised "HH:MM" times (lambdas/core/restart-schedule.ts) in `timeZone`. */
  restartTimes: readonly string[];
  timeZone: string;
  /** Gets the inputs to local disk and probes them, once; aborted if the stream is stopped meanwhile. */
  prepare(signal: AbortSignal): Promise<PreparedMedia>;
  sink: HeartbeatSink;
  policy?: SupervisorPolicy;
  heartbeatIntervalMs?: number;
  tickMs?: number;
  clock?: Clock;
  runner?: ProcessRunner;
  probe?: ReachabilityProbe;
  random?: () => number;
  /** Log lines (stream keys already redacted); the level is info unless given. */
  log?: LogFn;
  /** Marked with the first ffmpeg and the first media; logged (`on air`) when media first flows. */
  startup?: StartupTimeline;
  ffmpegPath?: string;
  /** Whom RTMPS destinations' certificates must be signed by (default: LOOPCAST_DESTINATION_CA_FILE, else the
   * system's trust store). */
  tls?: TlsTrust;
  /** A playlist's item began (the bench times the joins). */
  onJoin?(report: JoinReport): void;
}

/** What a failure reason says when an RTMPS destination's certificate was refused: the catalogue key, which the web
 * app shows translated (web/src/features/streams/stream-display.ts), and the probe's words. */
const CERTIFICATE_REFUSED: ErrorKey = 'destination certificate refused';

export class StreamSupervisor {
  private machine: MachineState;
  private readonly clock: Clock;
  private readonly runner: ProcessRunner;
  private readonly probe: ReachabilityProbe;
  private readonly random: () => number;
  private readonly log: LogFn;
  private readonly heartbeats: HeartbeatPublisher;
  private readonly tls: TlsTrust;
  /** Destinations whose certificate the last probe refused, and why. */
  private readonly certificateRefusals = new Map<string, string>();
  /** Whether destinations may only be dialled at public addresses (the probes' rule, kept by the relays). */
  private readonly publicOnly: boolean;
  /** The chunk-size relays of destinations published through one, by destination id (chunk-relay.ts). */
  private readonly relays = new Map<string, ChunkRelay>();
  private readonly children = new Map<number, ChildHandle>();
  private readonly preparation = new AbortController();
  private files?: FfmpegInputs;
  private playlist?: PlaylistPlayback;
  /** The feeds of a playlist's runs, ended with their ffmpeg. */
  private readonly feeds = new Map<number, AbortController>();
  private readonly queue: MachineEvent[] = [];
  private dispatching = false;
  private stopTimers: (() => void)[] = [];
  private exitCode?: number;
  private resolveRun?: (code: number) => void;

  constructor(private readonly options: StreamSupervisorOptions) {
    this.clock = options.clock ?? systemClock;
    this.runner = options.runner ?? childProcessRunner;
    const caFile = destinationCaFile(process.env);
    this.tls = options.tls ?? (caFile ? { caFile } : {});
    this.publicOnly = publicAddressesOnly(process.env);
    this.probe = options.probe ?? rtmpHandshakeProbe(undefined, { publicOnly: this.publicOnly, ...(this.tls.caFile ? { caFile: this.tls.caFile } : {}) });
    this.random = options.random ?? Math.random;
    this.log = options.log ?? (() => {});
    this.heartbeats = new HeartbeatPublisher(options.sink, this.log);
    if (new Set(options.destinations.map((d) => d.id)).size !== options.destinations.length) throw new Error('destination ids must be unique');
    this.machine = initialState(
      {
        destinationIds: options.destinations.map((d) => d.id),
        restartTimes: options.restartTimes,
        timeZone: options.timeZone,
        policy: options.policy ?? defaultPolicy,
      },
      this.clock.now(),
    );
  }

  /** The machine's current state, read-only (tests, the bench). */
  get state(): Readonly<MachineState> {
    return this.machine;
  }

  /** Pids of the ffmpeg processes alive right now. */
  get ffmpegPids(): number[] {
    return [...this.children.values()].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
  }

  /** Runs until stopped (exit code 0) or until the inputs cannot be prepared (1). */
  run(): Promise<number> {
    const finished = new Promise<number>((resolve) => (this.resolveRun = resolve));
    this.stopTimers = [
      this.clock.every(this.options.tickMs ?? 250, () => this.dispatch({ type: 'tick' })),
      this.clock.every(this.options.heartbeatIntervalMs ?? 10_000, () => this.publishHeartbeat()),
    ];
    this.publishHeartbeat();
    // The destinations are asked for their chunk size beside the preparation (a download and a probe, far longer),
    // so that the first ffmpeg already publishes through the relays some need.
    Promise.all([this.options.prepare(this.preparation.signal), this.askChunkSizes()]).then(
      ([media]) => {
        this.files = media.files;
        this.playlist = media.playlist;
        this.dispatch({ type: 'prepared', inputs: { loopDurationUs: media.loopDurationUs, inputBitrateKbps: media.inputBitrateKbps } });
      },
      (error: Error) => this.dispatch({ type: 'prepareFailed', error: `inputs not ready: ${error.message}` }),
    );
    return finished;
  }

  /** Desired state becomes stopped: ffmpeg gets SIGTERM, then SIGKILL after the grace period. Idempotent. */
  stop(): void {
    this.dispatch({ type: 'stop' });
  }

  private dispatch(event: MachineEvent): void {
    this.queue.push(event);
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        const result = step(this.machine, next, { now: this.clock.now(), random: this.random() });
        this.machine = result.state;
        for (const command of result.commands) this.execute(command);
      }
    } finally {
      this.dispatching = false;
    }
    if (this.exitCode !== undefined) this.finish(this.exitCode);
  }

  private execute(command: Command): void {
    switch (command.type) {
      case 'spawn':
        this.spawn(
          command.runId,
          this.options.destinations.filter((d) => command.destinationIds.includes(d.id)),
        );
        return;
      case 'kill':
        this.log(`sending ${command.signal} to ffmpeg run ${command.runId}`);
        this.children.get(command.runId)?.kill(command.signal);
        return;
      case 'probe': {
        const probed = this.options.destinations.filter((d) => command.destinationIds.includes(d.id));
        void Promise.all(probed.map((d) => this.probe.probe(d.url).catch((): ProbeResult => ({ answers: false })))).then((results) => {
          probed.forEach((d, i) => {
            const refused = results[i]!.certificateRefused;
            if (refused) this.certificateRefusals.set(d.id, refused);
            else this.certificateRefusals.delete(d.id);
          });
          // A server whose certificate is refused is there: it goes to ffmpeg like one that answers, and ffmpeg,
          // verifying it the same way, refuses it; that failure then carries the probe's reason, so the creator
          // reads why (the destination's failed state, lastError) and nothing is ever published unverified.
          const answering = probed.filter((_, i) => results[i]!.answers || results[i]!.certificateRefused).map((d) => d.id);
          this.dispatch({ type: 'probed', seq: command.seq, answering });
        });
        return;
      }
      case 'abortPreparation':
        this.preparation.abort();
        return;
      case 'report': {
        const m = this.machine;
        if (m.actual === 'started' && this.options.startup?.mark('mediaFlowing')) this.log('on air', 'info', { startup: this.options.startup.summary() });
        const level = m.actual === 'failed' ? 'error' : m.actual === 'restarting' && m.lastError ? 'warn' : 'info';
        this.log(
          `${m.actual} (desired ${m.desired}, restarts ${m.restarts}, scheduled ${m.scheduledRestarts})${m.lastError ? `; last error: ${m.lastError}` : ''}`,
          level,
        );
        this.publishHeartbeat();
        return;
      }
      case 'finish':
        this.exitCode = command.exitCode;
        return;
    }
  }

  private spawn(runId: number, destinations: readonly Destination[]): void {
    const parser = new ProgressParser();
    let lastStderr = '';
    let gone = false;
    const args = ffmpegArgs(this.files!, destinations, this.tls, new Map([...this.relays].map(([id, relay]) => [id, relay.url])));
    const refusal = (destination: Destination | undefined) => {
      const reason = destination && this.certificateRefusals.get(destination.id);
      return reason ? `${CERTIFICATE_REFUSED} (${reason})` : undefined;
    };
    // ffmpeg sees a relayed destination's failure as its loopback connection ending: the relay knows why.
    const relayFailure = (destination: Destination | undefined) => (destination && this.relays.get(destination.id)?.lastError) || undefined;
    const playlist = this.playlist;
    const child = this.runner.spawn(
      this.options.ffmpegPath ?? 'ffmpeg',
      args,
      {
        onStdoutLine: (line) => {
          const block = parser.pushLine(line);
          if (block) this.dispatch({ type: 'progress', runId, block });
        },
        onStderrLine: (raw) => {
          const line = cleanStderrLine(raw);
          if (!line) return;
          lastStderr = line;
          this.log(`ffmpeg run ${runId}: ${line}`, 'warn'); // ffmpeg runs with -loglevel warning
          const failure = teeSlaveFailure(line);
          const destination = failure && destinations[failure.index];
          if (failure && destination)
            this.dispatch({
              type: 'destinationFailed',
              runId,
              destinationId: destination.id,
              reason: refusal(destination) ?? relayFailure(destination) ?? failure.reason,
            });
          if (teeQueueFull(line)) this.dispatch({ type: 'destinationBlocked', runId });
        },
        onExit: ({ code, signal, error }) => {
          gone = true;
          this.children.delete(runId);
          this.feeds.get(runId)?.abort();
          this.feeds.delete(runId);
          const how = error ? `could not be started (${error.message})` : code !== null ? `exited with code ${code}` : `was killed by ${signal}`;
          const why = (destinations.length === 1 && code !== 0 && (refusal(destinations[0]) || relayFailure(destinations[0]))) || lastStderr;
          this.dispatch({ type: 'exited', runId, detail: why ? `${how}: ${why}` : how });
        },
      },
      playlist ? { stdin: true } : undefined,
    );
    if (!gone) this.children.set(runId, child);
    this.options.startup?.mark('ffmpegSpawned');
    this.log(`ffmpeg run ${runId} spawned (pid ${child.pid})`);
    if (playlist && child.stdin && !gone) this.feed(runId, playlist, child);
  }

  /** Writes the playlist into the run's ffmpeg until it exits. A run starts with the item that was playing (from its
   * beginning) or with an edit waiting for a restart. */
  private feed(runId: number, playlist: PlaylistPlayback, child: ChildHandle): void {
    const controller = new AbortController();
    this.feeds.set(runId, controller);
    playlist.runtime.restart();
    feedFlv({
      playlist: playlist.runtime,
      ...(playlist.soundtrack ? { soundtrack: playlist.soundtrack } : {}),
      out: child.stdin!,
      signal: controller.signal,
      onJoin: (report) => {
        this.log(
          `ffmpeg run ${runId}: playing ${report.itemId}${report.switchMs === undefined ? '' : ` (joined in ${report.switchMs.toFixed(1)} ms)`}`,
          'debug',
        );
        this.options.onJoin?.(report);
      },
      onDroppedAudio: (itemId) => this.log(`ffmpeg run ${runId}: an audio frame of ${itemId} left out at its join`, 'warn'),
    }).catch((error: Error) => {
      // An item that cannot be read: ffmpeg is ended, and the run restarted after the backoff like any failed run.
      this.log(`ffmpeg run ${runId}: the playlist cannot be fed: ${error.message}`, 'error');
      child.kill('SIGKILL');
    });
  }

  /** Asks each destination, once a task, which RTMP chunk size it declares (what ffmpeg's CPU and, over RTMPS, the
   * egress depend on, docs/decisions.md), and starts a relay for each that needs one. Never fails: a destination
   * that cannot be asked, or whose relay cannot listen, is published to directly. */
  private async askChunkSizes(): Promise<void> {
    const ask = this.probe.declaredChunkSize?.bind(this.probe);
    if (!ask) return;
    await Promise.all(
      this.options.destinations.map(async (destination) => {
        const size = await ask(destination.url).catch(() => undefined);
        const relay = needsRelay(destination.url, size)
          ? await startChunkRelay(destination.url, () => dialDestination(destination.url, { publicOnly: this.publicOnly })).catch((error: Error) => {
              this.log(`destination ${destination.id}: no relay (${error.message})`, 'warn');
              return undefined;
            })
          : undefined;
        if (relay && !this.resolveRun)
          relay.close(); // the task finished while it was asked
        else if (relay) this.relays.set(destination.id, relay);
        const report = chunkSizeReport(destination.id, size, relay !== undefined);
        this.log(report.text, report.level);
      }),
    );
  }

  private publishHeartbeat(): void {
    const heartbeat = heartbeatOf(this.options.streamId, this.machine, this.clock.now());
    this.heartbeats.publish(this.playlist ? { ...heartbeat, playlist: this.playlist.runtime.status() } : heartbeat);
  }

  private finish(exitCode: number): void {
    if (!this.resolveRun) return;
    const resolve = this.resolveRun;
    this.resolveRun = undefined;
    for (const stopTimer of this.stopTimers) stopTimer();
    for (const relay of this.relays.values()) relay.close();
    void this.heartbeats.flush().then(() => resolve(exitCode));
  }
}
