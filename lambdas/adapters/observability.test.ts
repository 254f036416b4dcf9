// The X-Ray SDK is loaded only inside Lambda: loaded anywhere, its cls-hooked installs async hooks on every promise
// of the process (the local stack, the stream task's API, the benches). Each case imports observability.ts in a fresh
// Node process and records which modules it resolved.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const moduleUrl = new URL('./observability.ts', import.meta.url).href;

interface Probe {
  /** The X-Ray SDK's and cls-hooked's modules that importing observability.ts loaded. */
  loaded: string[];
  /** How many middlewares a handler's chain gets. */
  middlewares: number;
  /** Whether `traced` added X-Ray's middleware to an SDK client. */
  clientTraced: boolean;
}

/** Imports observability.ts in a fresh Node process with the given environment. */
async function probe(env: Record<string, string>): Promise<Probe> {
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = [];
    registerHooks({ resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      if (/aws-xray-sdk-core|cls-hooked/.test(resolved.url)) loaded.push(resolved.url);
      return resolved;
    } });
    const { traced, observability } = await import(${JSON.stringify(moduleUrl)});
    const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
    const client = traced(new DynamoDBClient({ region: 'eu-west-1' }));
    const clientTraced = client.middlewareStack.identify().some((name) => /xray/i.test(name));
    console.log(JSON.stringify({ loaded, middlewares: observability().length, clientTraced }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, AWS_EXECUTION_ENV: '', AWS_LAMBDA_FUNCTION_NAME: '', ...env },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Probe;
}

test('outside Lambda no X-Ray code loads, clients stay as they are and no tracing middleware runs', async () => {
  expect(await probe({})).toEqual({ loaded: [], middlewares: 2, clientTraced: false });
  // A Fargate stream task has an execution environment too, and is not traced.
  expect(await probe({ AWS_EXECUTION_ENV: 'AWS_ECS_FARGATE' })).toEqual({ loaded: [], middlewares: 2, clientTraced: false });
});

test('inside Lambda the tracer loads with the X-Ray SDK and traces the invocation', async () => {
  const inLambda = await probe({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x', AWS_LAMBDA_FUNCTION_NAME: 'probe' });
  expect(inLambda.loaded.some((url) => url.includes('aws-xray-sdk-core'))).toBe(true);
  expect(inLambda.loaded.some((url) => url.includes('cls-hooked'))).toBe(true);
  expect(inLambda).toMatchObject({ middlewares: 3, clientTraced: true });
});
