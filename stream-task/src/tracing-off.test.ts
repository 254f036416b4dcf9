// On Fargate (AWS_EXECUTION_ENV=AWS_ECS_FARGATE) the Lambdas' Tracer would switch itself on and log an X-Ray
// "missing segment" error for every AWS SDK call; main.ts imports tracing-off first so it stays off.
test('with tracing-off loaded first, the Lambdas\' Tracer stays off on Fargate and clients come back unwrapped', async () => {
  const before = { exec: process.env.AWS_EXECUTION_ENV, trace: process.env.POWERTOOLS_TRACE_ENABLED };
  process.env.AWS_EXECUTION_ENV = 'AWS_ECS_FARGATE';
  try {
    await import('./tracing-off');
    const { tracer, traced } = await import('../../lambdas/adapters/observability');
    expect(tracer.isTracingEnabled()).toBe(false);
    const client = { middlewareStack: { use: () => { throw new Error('instrumented'); } } };
    expect(traced(client)).toBe(client);
  } finally {
    process.env.AWS_EXECUTION_ENV = before.exec;
    process.env.POWERTOOLS_TRACE_ENABLED = before.trace;
    if (before.exec === undefined) delete process.env.AWS_EXECUTION_ENV;
    if (before.trace === undefined) delete process.env.POWERTOOLS_TRACE_ENABLED;
  }
});
