// Handler group "stream-tasks": the API a running stream task talks to (lambdas/contract/stream-task.ts). The run
// token the lifecycle gave the task is its only credential, checked against the run's lease on every call; a
// refusal (409 'task lease lost') tells the task to stop.
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { bytesMetric, countMetric, secondsMetric } from '../adapters/metrics';
import { metricNames } from '../contract/metrics';
import { API_BASE } from '../contract/routes';
import { heartbeatRequestSchema, leaseRequestSchema, previewQuerySchema, probeRequestSchema, TASK_API, type HeartbeatAnswer } from '../contract/stream-task';
import { AppError } from '../core/errors';
import { grantLease, recordHeartbeat, storePreview, storeProbe } from '../core/streams/task-session';
import { taskSessionContext } from '../wiring/streams';
import { json, noContent, taskRoute, type ApiRequest } from './api';
import { createHttpHandler, type HttpHandler } from './handler';

/** A preview frame is a 640-pixel-wide JPEG (stream-task/src/preview.ts): tens of kilobytes. */
const PREVIEW_MAX_BYTES = 1024 * 1024;

function runToken(request: ApiRequest<unknown, unknown, undefined>): string {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!token) throw new AppError('unauthorized');
  return token;
}

const lease = taskRoute({
  body: leaseRequestSchema,
  async handle(request, deps) {
    return json(200, await grantLease(taskSessionContext(deps), request.body, runToken(request)));
  },
});

const heartbeat = taskRoute({
  body: heartbeatRequestSchema,
  async handle(request, deps) {
    const { heartbeat: beat, ...caller } = request.body;
    const { facts, watched, playlist } = await recordHeartbeat(taskSessionContext(deps), caller, runToken(request), beat);
    countMetric(metricNames.ffmpegRestarts, facts.ffmpegRestarts);
    if (facts.stalled) countMetric(metricNames.streamStalls);
    if (facts.recoverySeconds !== undefined) secondsMetric(metricNames.recoverySeconds, facts.recoverySeconds);
    bytesMetric(metricNames.streamEgressBytes, facts.egressBytes);
    const answer: HeartbeatAnswer = { previews: watched, ...(playlist ? { playlist } : {}) };
    return json(200, answer);
  },
});

const preview = taskRoute({
  query: previewQuerySchema,
  binaryBody: true,
  maxBodyBytes: PREVIEW_MAX_BYTES,
  async handle(request, deps) {
    await storePreview(taskSessionContext(deps), request.query, runToken(request), request.body as unknown as Buffer);
    return noContent();
  },
});

const probe = taskRoute({
  body: probeRequestSchema,
  async handle(request, deps) {
    const { input, probe: found, ...caller } = request.body;
    await storeProbe(taskSessionContext(deps), caller, runToken(request), input, found);
    return noContent();
  },
});

export function createStreamTasksHandler(deps: () => Deps | Promise<Deps>): HttpHandler {
  return createHttpHandler({
    group: 'stream-tasks',
    deps,
    routes: {
      [`POST ${API_BASE}${TASK_API.lease}`]: lease,
      [`POST ${API_BASE}${TASK_API.heartbeat}`]: heartbeat,
      [`PUT ${API_BASE}${TASK_API.preview}`]: preview,
      [`POST ${API_BASE}${TASK_API.probe}`]: probe,
    },
  });
}

export const handler = createStreamTasksHandler(depsFromEnvironment);
