// Health of one ffmpeg run, judged from its progress blocks and the wall clock. ffmpeg's own fps, bitrate and
// speed are averages since the run began, so a run that stalls after an hour still shows speed=1.0x for a long
// time; everything here is measured over a recent window of samples instead.
import type { ProgressBlock } from './progress';

export interface HealthPolicy {
  /** No media (output time > 0) this long after spawning ffmpeg: give up on this run. */
  startTimeoutMs: number;
  /** No progress block, or no output-time advance, for this long: the run is stalled. */
  stallTimeoutMs: number;
  /** Speed below minSpeed measured over this window: the destination cannot keep up. The speed is read off the
   * progress blocks as the supervisor receives them, so a busy machine that delays them by a second skews a
   * 15-second window by 7 %: minSpeed leaves room for that (a frozen destination shows 0.4x or less). */
  slowWindowMs: number;
  minSpeed: number;
  /** Window for the fps, bitrate and speed we report. */
  metricsWindowMs: number;
}

export const defaultHealthPolicy: HealthPolicy = {
  startTimeoutMs: 15_000,
  stallTimeoutMs: 5_000,
  slowWindowMs: 15_000,
  minSpeed: 0.8,
  metricsWindowMs: 10_000,
};

interface Sample {
  at: number;
  outTimeUs: number;
  frame: number;
  totalSizeBytes?: number;
}

export interface RunHealth {
  spawnedAt: number;
  lastBlockAt?: number;
  /** When the output time last grew. */
  lastAdvanceAt?: number;
  outTimeUs: number;
  /** Oldest first; only as far back as the longest window needs. */
  samples: readonly Sample[];
}

export interface RunMetrics {
  fps: number;
  speed: number;
  bitrateKbps: number;
}

export const newRunHealth = (spawnedAt: number): RunHealth => ({ spawnedAt, outTimeUs: 0, samples: [] });

/** Media flows once the output time has moved past zero (ffmpeg connected, published and wrote packets). */
export const mediaFlowing = (health: RunHealth): boolean => health.outTimeUs > 0;

export function recordProgress(health: RunHealth, block: ProgressBlock, now: number, policy: HealthPolicy): RunHealth {
  const outTimeUs = block.outTimeUs ?? health.outTimeUs;
  const advanced = outTimeUs > health.outTimeUs;
  const keepSince = now - Math.max(policy.slowWindowMs, policy.metricsWindowMs);
  const samples = [
    ...health.samples,
    { at: now, outTimeUs, frame: block.frame ?? 0, ...(block.totalSizeBytes === undefined ? {} : { totalSizeBytes: block.totalSizeBytes }) },
  ];
  // Keep one sample older than the window so a full window can be measured.
  const firstInWindow = samples.findIndex((sample) => sample.at >= keepSince);
  return {
    spawnedAt: health.spawnedAt,
    lastBlockAt: now,
    ...(advanced ? { lastAdvanceAt: now } : health.lastAdvanceAt === undefined ? {} : { lastAdvanceAt: health.lastAdvanceAt }),
    outTimeUs: Math.max(outTimeUs, health.outTimeUs),
    samples: samples.slice(Math.max(0, firstInWindow - 1)),
  };
}

/** The newest sample and the newest one at least `windowMs` older (or the oldest there is). */
function windowEnds(health: RunHealth, now: number, windowMs: number): [Sample, Sample] | undefined {
  const last = health.samples.at(-1);
  if (!last) return undefined;
  const first = health.samples.findLast((sample) => sample.at <= now - windowMs) ?? health.samples[0]!;
  return first === last ? undefined : [first, last];
}

/**
 * fps, speed and bitrate over the recent window. Without total_size (the tee muxer does not report it) the
 * bitrate is the input's, scaled by the speed: stream copy sends exactly the input's bytes.
 */
export function runMetrics(health: RunHealth, now: number, policy: HealthPolicy, inputBitrateKbps: number): RunMetrics {
  const ends = windowEnds(health, now, policy.metricsWindowMs);
  if (!ends) return { fps: 0, speed: 0, bitrateKbps: 0 };
  const [first, last] = ends;
  const seconds = (last.at - first.at) / 1000;
  const speed = (last.outTimeUs - first.outTimeUs) / 1e6 / seconds;
  const bitrateKbps =
    first.totalSizeBytes !== undefined && last.totalSizeBytes !== undefined
      ? ((last.totalSizeBytes - first.totalSizeBytes) * 8) / 1000 / seconds
      : inputBitrateKbps * speed;
  const round = (value: number, digits: number) => Number(Math.max(0, value).toFixed(digits));
  return { fps: round((last.frame - first.frame) / seconds, 1), speed: round(speed, 3), bitrateKbps: round(bitrateKbps, 0) };
}

/** Why this run should be killed, or undefined while it is healthy. */
export function stallReason(health: RunHealth, now: number, policy: HealthPolicy): string | undefined {
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
  if (!mediaFlowing(health)) {
    return now - health.spawnedAt >= policy.startTimeoutMs ? `no media within ${seconds(policy.startTimeoutMs)} of starting ffmpeg` : undefined;
  }
  if (now - health.lastBlockAt! >= policy.stallTimeoutMs) return `stalled: no progress from ffmpeg for ${seconds(now - health.lastBlockAt!)}`;
  if (now - health.lastAdvanceAt! >= policy.stallTimeoutMs) return `stalled: output time did not advance for ${seconds(now - health.lastAdvanceAt!)}`;
  const oldest = health.samples[0];
  if (oldest && oldest.at <= now - policy.slowWindowMs) {
    const ends = windowEnds(health, now, policy.slowWindowMs);
    if (ends) {
      const [first, last] = ends;
      const speed = (last.outTimeUs - first.outTimeUs) / 1e3 / (last.at - first.at);
      // Rounded down, so that 0.9497 does not read as "0.95x below 0.95x".
      const shown = (Math.floor(speed * 100) / 100).toFixed(2);
      if (speed < policy.minSpeed) return `too slow: speed ${shown}x below ${policy.minSpeed}x for ${seconds(last.at - first.at)}`;
    }
  }
  return undefined;
}
