// Imported first by main.ts, before anything that builds the Lambdas' Tracer (lambdas/adapters/observability.ts,
// through the DynamoDB and S3 clients of lambdas/adapters/aws-clients.ts). Powertools' Tracer switches itself on
// whenever AWS_EXECUTION_ENV is set, and Fargate sets it (AWS_ECS_FARGATE); but the task has no X-Ray daemon and
// no segment is ever opened outside a Lambda invocation, so every traced AWS SDK call and every HTTPS request
// would print a multi-line, non-JSON "Failed to get the current sub/segment from the context" error to stderr and
// trace nothing. Off, the Tracer hands back the clients unchanged and patches nothing (docs/stream-task.md).
process.env.POWERTOOLS_TRACE_ENABLED = 'false';
export {};
