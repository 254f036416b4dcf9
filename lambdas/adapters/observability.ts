// What every Lambda handler carries in its middy chain: the logger's Lambda context (request id, cold start; keys
// reset after each invocation), X-Ray tracing of the invocation, and the business metrics it recorded. Outside
// Lambda nothing traces and metrics are off by environment (scripts/run.mjs, the test setup).
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';
import { logger } from './logger';
import { metricsFlusher } from './metrics';

/**
 * Powertools' Tracer, loaded only inside Lambda (AWS_LAMBDA_FUNCTION_NAME; ECS tasks set AWS_EXECUTION_ENV too),
 * where it may trace. Loading it loads the X-Ray SDK, whose cls-hooked installs process-wide async hooks that tax
 * every promise (5-15 % of the CPU of a realtime broadcast, docs/realtime.md) even when the Tracer then switches
 * itself off, as it does everywhere else. Inside Lambda the Tracer still honours POWERTOOLS_TRACE_ENABLED and SAM's
 * local mode.
 */
const tracer = process.env.AWS_LAMBDA_FUNCTION_NAME ? new (await import('@aws-lambda-powertools/tracer')).Tracer({ serviceName: 'loopcast' }) : undefined;
const captureLambdaHandler = tracer ? (await import('@aws-lambda-powertools/tracer/middleware')).captureLambdaHandler : undefined;

/** An AWS SDK v3 client whose calls show as X-Ray subsegments (the same client where nothing traces). */
export const traced = <Client>(client: Client): Client => (tracer ? tracer.captureAWSv3Client(client) : client);

/** The middlewares, in order. Responses stay out of traces: they carry session and realtime tokens. */
export const observability = (): MiddlewareObj[] => [
  injectLambdaContext(logger, { resetKeys: true }),
  ...(tracer && captureLambdaHandler ? [captureLambdaHandler(tracer, { captureResponse: false })] : []),
  metricsFlusher(),
];
