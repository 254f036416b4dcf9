// Where a task's first seconds go: the time from the process's start to each step of getting on air, logged once
// with the first media (`on air`, its `startup` key: milliseconds per step). `npm run bench:start` reads it to
// split "Start" to first media into the API, the lifecycle, the task's own steps and the RTMP connection.

/** The steps, in the order they happen. */
export type StartupStep = 'leased' | 'inputsFetched' | 'inputsReady' | 'ffmpegSpawned' | 'mediaFlowing';

export class StartupTimeline {
  private readonly reached = new Map<StartupStep, number>();

  /** `origin`: when the process started (performance.timeOrigin), in epoch milliseconds. */
  constructor(
    private readonly origin: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes the first time a step is reached; later ones (a restarted ffmpeg) are not the start. Returns whether
   * this was the first time. */
  mark(step: StartupStep): boolean {
    if (this.reached.has(step)) return false;
    this.reached.set(step, this.now());
    return true;
  }

  /** Milliseconds from the process's start to each step reached, and the process's start itself (epoch ms). */
  summary(): { processStartedAt: string } & Partial<Record<StartupStep, number>> {
    return {
      processStartedAt: new Date(this.origin).toISOString(),
      ...Object.fromEntries([...this.reached].map(([step, at]) => [step, Math.round(at - this.origin)])),
    };
  }
}
