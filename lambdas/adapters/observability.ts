// What every Lambda handler carries in its middy chain: the logger's Lambda context (request id, cold start; keys
// reset after each invocation), X-Ray tracing of the invocation, and the business metrics it recorded. Outside
// Lambda the tracer switches itself off and metrics are off by environment (scripts/run.mjs, the test setup).
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { logger } from './logger';
import { metricsFlusher } from './metrics';

export const tracer = new Tracer({ serviceName: 'loopcast' });

/** An AWS SDK v3 client whose calls show as X-Ray subsegments (the same client when tracing is off). */
export const traced = <Client>(client: Client): Client => tracer.captureAWSv3Client(client);

/** The middlewares, in order. Responses stay out of traces: they carry session and realtime tokens. */
export const observability = () => [
  injectLambdaContext(logger, { resetKeys: true }),
  captureLambdaHandler(tracer, { captureResponse: false }),
  metricsFlusher(),
];
