// Handler group "system": the stack's own health, for load balancers, the local stack's banner and support.
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { depsFromEnvironment, type Deps } from '../wiring/deps';
import { publicRoute, json } from './api';
import { createHttpHandler, type HttpHandler } from './handler';

const CHECK_TIMEOUT_MS = 3000;

export interface DependencyState {
  status: 'up' | 'down';
  latencyMs: number;
  error?: string;
}

async function probe(check: () => Promise<unknown>): Promise<DependencyState> {
  const started = performance.now();
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS).unref());
  try {
    await Promise.race([check(), timeout]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    const { name, message } = error as Error;
    return { status: 'down', latencyMs: Math.round(performance.now() - started), error: `${name}: ${message}` };
  }
}

export async function checkDependencies(deps: Deps): Promise<Record<string, DependencyState>> {
  const [dynamodb, s3] = await Promise.all([
    probe(() => deps.db.send(new DescribeTableCommand({ TableName: deps.config.tables.app }))),
    probe(() => deps.s3.send(new HeadBucketCommand({ Bucket: deps.config.buckets.media }))),
  ]);
  return { dynamodb, s3 };
}

const health = publicRoute({
  async handle(_request, deps) {
    const dependencies = await checkDependencies(deps);
    const healthy = Object.values(dependencies).every((d) => d.status === 'up');
    return json(healthy ? 200 : 503, { status: healthy ? 'ok' : 'degraded', stage: deps.config.stage, dependencies });
  },
});

export const createSystemHandler = (deps: () => Deps | Promise<Deps>): HttpHandler =>
  createHttpHandler({ group: 'system', routes: { 'GET /api/health': health }, deps });

export const handler = createSystemHandler(depsFromEnvironment);
