// The supervisor's brain, in the style of datarhei core's process supervisor: a desired state (what the stream
// should be doing) and an actual state (what ffmpeg is doing), reconciled after every event. Pure: `step` takes
// the state, an event, the time and a random number, and returns the next state plus the commands the shell
// (supervisor.ts) carries out: spawn or kill ffmpeg, probe the destinations, report a heartbeat, finish.
// Before every spawn the destinations are probed with an RTMP handshake and ffmpeg gets only those that answer:
// one that accepts TCP but never answers (a frozen server) is reported failed at once instead of filling its queue.
// The transition table is in docs/stream-task.md.
import { nextRestartAt } from '../../lambdas/core/restart-schedule';
import { backoffDelayMs, restartBackoff, type BackoffPolicy } from './backoff';
import { defaultHealthPolicy, mediaFlowing, newRunHealth, recordProgress, stallReason, type HealthPolicy, type RunHealth } from './health';
import { loopsPlayed, type ProgressBlock } from './progress';

export type DesiredState = 'running' | 'stopped';
export type ActualState = 'starting' | 'started' | 'restarting' | 'stopping' | 'stopped' | 'failed';

export interface SupervisorPolicy {
  health: HealthPolicy;
  /** Wait before spawning ffmpeg again after a failure. */
  restartBackoff: BackoffPolicy;
  /** Wait before restarting a run in which some (not all) destinations failed, to bring them back. */
  destinationRetryBackoff: BackoffPolicy;
  /** A run that stayed started this long resets both backoffs. */
  healthyResetMs: number;
  /** SIGTERM first (ffmpeg closes the RTMP session cleanly); SIGKILL when it has not exited after this. */
  killGraceMs: number;
  /** How often destinations that do not answer are probed while waiting for them. */
  probeIntervalMs: { whileDown: number; whileDegraded: number };
}

export const defaultPolicy: SupervisorPolicy = {
  health: defaultHealthPolicy,
  restartBackoff,
  destinationRetryBackoff: { firstMs: 30_000, maxMs: 10 * 60_000, jitter: 0.2 },
  healthyResetMs: 60_000,
  killGraceMs: 2_000,
  probeIntervalMs: { whileDown: 1_000, whileDegraded: 5_000 },
};

export interface MachineConfig {
  destinationIds: readonly string[];
  restartTimes: readonly string[];
  timeZone: string;
  policy: SupervisorPolicy;
}

export interface PreparedInputs {
  /** Length of one loop of the video input, for counting loops. */
  loopDurationUs: number;
  /** Bitrate of the mapped streams; the reported bitrate when ffmpeg does not give total_size (tee). */
  inputBitrateKbps: number;
}

/** The ffmpeg child that exists right now (spawned, not yet exited). */
export interface Run {
  id: number;
  health: RunHealth;
  /** The signal we sent to end it, and when SIGKILL follows a SIGTERM. */
  killedWith?: 'SIGTERM' | 'SIGKILL';
  killAt?: number;
  failedDestinations: readonly string[];
}

/** Waiting for destinations to answer again: a destination coming back ends any wait. */
export interface ReachabilityWatch {
  purpose: 'respawn' | 'retryDestinations';
  destinationIds: readonly string[];
  seq: number;
  sawUnreachable: boolean;
  nextProbeAt: number;
  probing: boolean;
}

type SpawnReason = 'first' | 'recovery' | 'scheduled';

export interface MachineState {
  readonly config: MachineConfig;
  desired: DesiredState;
  actual: ActualState;
  since: number;
  preparing: boolean;
  inputs?: PreparedInputs;
  run?: Run;
  /** Runs spawned so far (the next run's id). */
  runs: number;
  /** When the current run was declared started. */
  startedAt?: number;
  /** When to spawn the next run once no run exists, and why. */
  respawnAt?: number;
  respawnReason: SpawnReason;
  /** The handshake probe that decides which destinations the next run gets. */
  checking?: { seq: number };
  failureStreak: number;
  destinationRetryAt?: number;
  destinationRetryStreak: number;
  watch?: ReachabilityWatch;
  probeSeq: number;
  scheduledRestartAt?: number;
  restarts: number;
  scheduledRestarts: number;
  /** Loops played by runs that have ended. */
  loopsBefore: number;
  lastError?: string;
  finished: boolean;
}

export type MachineEvent =
  | { type: 'prepared'; inputs: PreparedInputs }
  | { type: 'prepareFailed'; error: string }
  | { type: 'stop' }
  | { type: 'progress'; runId: number; block: ProgressBlock }
  | { type: 'destinationFailed'; runId: number; destinationId: string; reason: string }
  /** A tee destination's queue filled up: it took no data for seconds while the others went on (ffmpeg does not
   * say which one). */
  | { type: 'destinationBlocked'; runId: number }
  | { type: 'exited'; runId: number; detail: string }
  /** The destinations (of those probed) that answered the RTMP handshake. */
  | { type: 'probed'; seq: number; answering: readonly string[] }
  | { type: 'tick' };

export type Command =
  | { type: 'spawn'; runId: number; destinationIds: readonly string[] }
  | { type: 'kill'; runId: number; signal: 'SIGTERM' | 'SIGKILL' }
  | { type: 'probe'; seq: number; destinationIds: readonly string[] }
  | { type: 'abortPreparation' }
  | { type: 'report' }
  | { type: 'finish'; exitCode: number };

export interface StepContext {
  now: number;
  /** In [0, 1), for the backoff jitter. */
  random: number;
}

export function initialState(config: MachineConfig, now: number): MachineState {
  return {
    config,
    desired: 'running',
    actual: 'starting',
    since: now,
    preparing: true,
    runs: 0,
    respawnReason: 'first',
    failureStreak: 0,
    destinationRetryStreak: 0,
    probeSeq: 0,
    ...scheduleFrom(config, now),
    restarts: 0,
    scheduledRestarts: 0,
    loopsBefore: 0,
    finished: false,
  };
}

function scheduleFrom(config: MachineConfig, after: number): { scheduledRestartAt?: number } {
  const next = nextRestartAt(config.restartTimes, config.timeZone, new Date(after));
  return next ? { scheduledRestartAt: next.getTime() } : {};
}

/** Loops played since the task started, over all runs. */
export function totalLoops(state: MachineState): number {
  const current = state.run && state.inputs ? loopsPlayed(state.run.health.outTimeUs, state.inputs.loopDurationUs) : 0;
  return state.loopsBefore + current;
}

/** 'ok' while media flows to the destination in the current run. */
export function destinationStates(state: MachineState): { id: string; state: 'ok' | 'failed' }[] {
  const flowing = state.actual === 'started' && state.run !== undefined;
  return state.config.destinationIds.map((id) => ({
    id,
    state: flowing && !state.run!.failedDestinations.includes(id) ? 'ok' : 'failed',
  }));
}

/** What a heartbeat shows; a change of any of it is reported at once. */
const reportable = (s: MachineState) => JSON.stringify([s.desired, s.actual, s.restarts, s.scheduledRestarts, s.lastError, destinationStates(s)]);

export function step(state: MachineState, event: MachineEvent, ctx: StepContext): { state: MachineState; commands: Command[] } {
  if (state.finished) return { state, commands: [] };
  const s: MachineState = { ...state, ...(state.run ? { run: { ...state.run } } : {}), ...(state.watch ? { watch: { ...state.watch } } : {}) };
  const commands: Command[] = [];
  apply(s, event, ctx, commands);
  reconcile(s, ctx, commands);
  if (reportable(s) !== reportable(state)) commands.push({ type: 'report' });
  return { state: s, commands };
}

function setActual(s: MachineState, actual: ActualState, now: number): void {
  if (s.actual !== actual) {
    s.actual = actual;
    s.since = now;
  }
  if (actual !== 'started') delete s.startedAt;
}

const currentRun = (s: MachineState, runId: number): Run | undefined => (s.run?.id === runId ? s.run : undefined);

/** A run is ending on our request: SIGTERM with a grace period, or SIGKILL at once. */
function endRun(s: MachineState, signal: 'SIGTERM' | 'SIGKILL', now: number, commands: Command[]): void {
  const run = s.run!;
  if (run.killedWith === 'SIGKILL' || run.killedWith === signal) return;
  run.killedWith = signal;
  if (signal === 'SIGTERM') run.killAt = now + s.config.policy.killGraceMs;
  else delete run.killAt;
  commands.push({ type: 'kill', runId: run.id, signal });
}

/** Something went wrong with the current run (or no destination answers): restart after the backoff, or as soon
 * as a destination that did not answer answers again. */
function recover(s: MachineState, error: string, ctx: StepContext, known: 'unknown' | 'unreachable' = 'unknown'): void {
  s.lastError = error;
  s.respawnAt = ctx.now + backoffDelayMs(s.failureStreak, s.config.policy.restartBackoff, ctx.random);
  s.respawnReason = 'recovery';
  s.failureStreak += 1;
  delete s.destinationRetryAt;
  if (known === 'unreachable') {
    s.watch = newWatch(s, 'respawn', s.config.destinationIds, ctx.now + s.config.policy.probeIntervalMs.whileDown);
    s.watch.sawUnreachable = true;
  } else {
    s.watch = newWatch(s, 'respawn', s.config.destinationIds, ctx.now);
  }
  setActual(s, 'restarting', ctx.now);
}

/** Some destinations are not in the current run (failed or did not answer): retry them later, or when they answer. */
function planDestinationRetry(s: MachineState, failed: readonly string[], ctx: StepContext): void {
  s.destinationRetryAt ??= ctx.now + backoffDelayMs(s.destinationRetryStreak, s.config.policy.destinationRetryBackoff, ctx.random);
  s.watch = newWatch(s, 'retryDestinations', failed, ctx.now + s.config.policy.probeIntervalMs.whileDegraded);
}

function spawn(s: MachineState, destinationIds: readonly string[], now: number, commands: Command[]): Run {
  s.runs += 1;
  if (s.respawnReason === 'recovery') s.restarts += 1;
  if (s.respawnReason === 'scheduled') s.scheduledRestarts += 1;
  const run: Run = { id: s.runs, health: newRunHealth(now), failedDestinations: s.config.destinationIds.filter((id) => !destinationIds.includes(id)) };
  s.run = run;
  delete s.watch;
  setActual(s, 'starting', now);
  commands.push({ type: 'spawn', runId: run.id, destinationIds });
  return run;
}

/** A deliberate restart (schedule, destination retry): ffmpeg ends cleanly and the next run starts at once. */
function restartNow(s: MachineState, reason: SpawnReason, ctx: StepContext, commands: Command[]): void {
  endRun(s, 'SIGTERM', ctx.now, commands);
  s.respawnAt = ctx.now;
  s.respawnReason = reason;
  delete s.destinationRetryAt;
  delete s.watch;
  setActual(s, 'restarting', ctx.now);
}

function newWatch(s: MachineState, purpose: ReachabilityWatch['purpose'], destinationIds: readonly string[], now: number): ReachabilityWatch {
  s.probeSeq += 1;
  return { purpose, destinationIds, seq: s.probeSeq, sawUnreachable: false, nextProbeAt: now, probing: false };
}

function apply(s: MachineState, event: MachineEvent, ctx: StepContext, commands: Command[]): void {
  const { now } = ctx;
  switch (event.type) {
    case 'prepared':
      if (!s.preparing) return;
      s.preparing = false;
      s.inputs = event.inputs;
      s.respawnAt = now;
      return;
    case 'prepareFailed':
      if (!s.preparing) return;
      s.preparing = false;
      s.lastError = event.error;
      setActual(s, 'failed', now);
      s.finished = true;
      commands.push({ type: 'finish', exitCode: 1 });
      return;
    case 'stop':
      s.desired = 'stopped';
      if (s.preparing) {
        s.preparing = false;
        commands.push({ type: 'abortPreparation' });
      }
      return;
    case 'progress': {
      const run = currentRun(s, event.runId);
      if (!run || run.killedWith) return;
      run.health = recordProgress(run.health, event.block, now, s.config.policy.health);
      if (s.actual === 'starting' && mediaFlowing(run.health)) {
        setActual(s, 'started', now);
        s.startedAt = now;
      }
      return;
    }
    case 'destinationFailed': {
      const run = currentRun(s, event.runId);
      if (!run || run.failedDestinations.includes(event.destinationId)) return;
      run.failedDestinations = [...run.failedDestinations, event.destinationId];
      s.lastError = `destination ${event.destinationId} failed: ${event.reason}`;
      if (s.desired === 'running' && !run.killedWith && run.failedDestinations.length < s.config.destinationIds.length) {
        planDestinationRetry(s, run.failedDestinations, ctx);
      }
      return;
    }
    case 'destinationBlocked': {
      const run = currentRun(s, event.runId);
      if (!run || run.killedWith || s.desired !== 'running') return;
      // Restarting leaves it out if it no longer answers the handshake (a frozen server), as after a stall; the
      // blocked writer thread would hold up a SIGTERMed ffmpeg's exit.
      endRun(s, 'SIGKILL', now, commands);
      recover(s, 'a destination stopped accepting data (its queue filled up)', ctx);
      return;
    }
    case 'exited': {
      const run = currentRun(s, event.runId);
      if (!run) return;
      s.loopsBefore += s.inputs ? loopsPlayed(run.health.outTimeUs, s.inputs.loopDurationUs) : 0;
      delete s.run;
      if (s.desired === 'running' && !run.killedWith) recover(s, `ffmpeg ${event.detail}`, ctx);
      return;
    }
    case 'probed': {
      if (s.checking?.seq === event.seq) {
        // Only issued with no run and the stream desired running; a stop deletes it.
        delete s.checking;
        const answering = s.config.destinationIds.filter((id) => event.answering.includes(id));
        if (!answering.length) {
          recover(s, 'no destination answered the RTMP handshake', ctx, 'unreachable');
          return;
        }
        const run = spawn(s, answering, now, commands);
        if (run.failedDestinations.length) {
          s.lastError = `destination ${run.failedDestinations.join(', ')} did not answer the RTMP handshake`;
          planDestinationRetry(s, run.failedDestinations, ctx);
        }
        return;
      }
      const watch = s.watch;
      if (!watch || watch.seq !== event.seq) return;
      watch.probing = false;
      if (!event.answering.length) {
        watch.sawUnreachable = true;
        watch.nextProbeAt = now + (watch.purpose === 'respawn' ? s.config.policy.probeIntervalMs.whileDown : s.config.policy.probeIntervalMs.whileDegraded);
        return;
      }
      if (!watch.sawUnreachable) {
        // Reachable all along: the failure was not the network, the backoff stands.
        delete s.watch;
        return;
      }
      delete s.watch;
      if (watch.purpose === 'respawn' && !s.run) s.respawnAt = now;
      if (watch.purpose === 'retryDestinations' && s.run && !s.run.killedWith) {
        s.destinationRetryStreak += 1;
        restartNow(s, 'recovery', ctx, commands);
      }
      return;
    }
    case 'tick':
      onTick(s, ctx, commands);
      return;
  }
}

function onTick(s: MachineState, ctx: StepContext, commands: Command[]): void {
  const { now } = ctx;
  const policy = s.config.policy;
  const run = s.run;
  if (s.desired !== 'running') return;

  if (s.scheduledRestartAt !== undefined && now >= s.scheduledRestartAt) {
    // A restart falling into a gap (ffmpeg already down) is simply skipped; the next one is planned either way.
    const due = s.scheduledRestartAt;
    delete s.scheduledRestartAt;
    Object.assign(s, scheduleFrom(s.config, due));
    if (run && !run.killedWith && (s.actual === 'started' || s.actual === 'starting')) {
      restartNow(s, 'scheduled', ctx, commands);
      return;
    }
  }

  if (run && !run.killedWith) {
    const stall = stallReason(run.health, now, policy.health);
    if (stall) {
      // A stalled ffmpeg is blocked in a write and ignores SIGTERM.
      endRun(s, 'SIGKILL', now, commands);
      recover(s, stall, ctx);
      return;
    }
    if (s.actual === 'started' && s.startedAt !== undefined && now - s.startedAt >= policy.healthyResetMs) {
      s.failureStreak = 0;
      if (!run.failedDestinations.length) s.destinationRetryStreak = 0;
    }
    if (s.destinationRetryAt !== undefined && now >= s.destinationRetryAt) {
      s.destinationRetryStreak += 1;
      restartNow(s, 'recovery', ctx, commands);
      return;
    }
  }
}

/** After every event: bring the actual state towards the desired one, and act on due deadlines. */
function reconcile(s: MachineState, ctx: StepContext, commands: Command[]): void {
  const { now } = ctx;
  const run = s.run;
  if (run?.killedWith === 'SIGTERM' && run.killAt !== undefined && now >= run.killAt) endRun(s, 'SIGKILL', now, commands);

  if (s.finished) return;
  if (s.desired === 'stopped') {
    delete s.respawnAt;
    delete s.watch;
    delete s.checking;
    delete s.destinationRetryAt;
    if (run) {
      endRun(s, 'SIGTERM', now, commands);
      setActual(s, 'stopping', now);
    } else {
      setActual(s, 'stopped', now);
      s.finished = true;
      commands.push({ type: 'finish', exitCode: 0 });
    }
    return;
  }

  if (!run && s.inputs && s.respawnAt !== undefined && now >= s.respawnAt && !s.checking) {
    s.probeSeq += 1;
    s.checking = { seq: s.probeSeq };
    delete s.respawnAt;
    delete s.watch;
    commands.push({ type: 'probe', seq: s.probeSeq, destinationIds: s.config.destinationIds });
    return;
  }

  const watch = s.watch;
  if (watch && !watch.probing && now >= watch.nextProbeAt) {
    watch.probing = true;
    commands.push({ type: 'probe', seq: watch.seq, destinationIds: watch.destinationIds });
  }
}
