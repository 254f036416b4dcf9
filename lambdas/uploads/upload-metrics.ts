// What the tus upload server records for the ops dashboard (lib/ops-stack.ts): uploads started, completed and
// failed, and how long their bytes took. Through the EMF helpers of lambdas/adapters/metrics.ts by default; the
// Lambda flushes them per invocation (its middy chain), the local stack and tests leave metrics off.
//
// What counts as what (docs/operations.md, "Uploads"):
// - started: the store created the upload after the plan accepted it; a refusal (plan, metadata, auth) is not one;
// - duration: from the creation time the store keeps in the upload's `.info` to the request that stored the last
//   byte, for every upload that got there;
// - completed / failed: the last byte is stored and onUploadFinished registered the item, or threw (the object is
//   complete but is no library item, and a client resuming finds it done: nothing retries it).
// Not counted as failed: 5xx answers to a chunk (the client retries them, the same upload usually completes, so
// they would count requests, not uploads), uploads the user cancels (DELETE), and uploads abandoned until they
// expire (no request sees them end). Started − completed − failed is what is in flight or abandoned.
import { countMetric, secondsMetric } from '../adapters/metrics';
import { metricNames, type MetricName } from '../contract/metrics';

export interface MetricSink {
  count(name: MetricName, value?: number): void;
  seconds(name: MetricName, value: number): void;
}

export interface UploadMetrics {
  /** The store created an upload the plan accepted. */
  started(): void;
  /** The last byte of an upload created at `creationDate` (ISO 8601, from its `.info`) is stored now. */
  lastByteStored(creationDate: string | undefined): void;
  /** onUploadFinished registered the upload as a library item, or threw. */
  finished(outcome: 'completed' | 'failed'): void;
}

const emf: MetricSink = { count: countMetric, seconds: secondsMetric };

/** Seconds from `creationDate` to `lastByteAt`, or undefined when the creation time is missing or unreadable.
 * Never negative (another container's clock may be a little ahead). */
export function uploadSeconds(creationDate: string | undefined, lastByteAt: Date): number | undefined {
  const created = creationDate ? Date.parse(creationDate) : Number.NaN;
  if (!Number.isFinite(created)) return undefined;
  return Math.max(0, (lastByteAt.getTime() - created) / 1000);
}

export function uploadMetrics(sink: MetricSink = emf, now: () => Date = () => new Date()): UploadMetrics {
  return {
    started: () => sink.count(metricNames.uploadsStarted),
    lastByteStored(creationDate) {
      const seconds = uploadSeconds(creationDate, now());
      if (seconds !== undefined) sink.seconds(metricNames.uploadSeconds, seconds);
    },
    finished: (outcome) => sink.count(outcome === 'completed' ? metricNames.uploadsCompleted : metricNames.uploadsFailed),
  };
}
