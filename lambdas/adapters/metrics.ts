// Business metrics (lambdas/contract/metrics.ts) as CloudWatch embedded metric format through Powertools: JSON log
// lines CloudWatch turns into metrics, no API calls. Dimensions: service `loopcast` and the stage. Handlers flush
// them per invocation (metricsFlusher in their middy chain); the stream task flushes after each report. Off locally and
// in tests (POWERTOOLS_METRICS_DISABLED, set by scripts/run.mjs and the test setup).
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, type MetricName } from '../contract/metrics';

export const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  serviceName: 'loopcast',
  defaultDimensions: { stage: process.env.STAGE ?? 'local' },
});

export const countMetric = (name: MetricName, value = 1): void => {
  if (value > 0) metrics.addMetric(name, MetricUnit.Count, value);
};

export const secondsMetric = (name: MetricName, value: number): void => {
  metrics.addMetric(name, MetricUnit.Seconds, value);
};

export const bytesMetric = (name: MetricName, value: number): void => {
  if (value > 0) metrics.addMetric(name, MetricUnit.Bytes, value);
};

export const gaugeMetric = (name: MetricName, value: number): void => {
  metrics.addMetric(name, MetricUnit.Count, value);
};

/** Publishes what the invocation recorded, if anything (Powertools' logMetrics warns on every metric-less request). */
export const flushMetrics = (): void => {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
};

/** The middy middleware form of flushMetrics, for after a success and after a failure alike. */
export const metricsFlusher = () => ({ after: flushMetrics, onError: flushMetrics });
