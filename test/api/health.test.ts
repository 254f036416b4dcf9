import { S3Client } from '@aws-sdk/client-s3';
import type { LocalStack } from '../../local/stack';
import { checkDependencies } from '../../lambdas/http/system';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

describe('GET /api/health', () => {
  test('reports DynamoDB Local and s3rver as up', async () => {
    const response = await fetch(`${stack.urls.api}/health`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ status: 'ok', stage: 'local', dependencies: { dynamodb: { status: 'up' }, s3: { status: 'up' } } });
  });

  test('reports a dependency that does not answer as down', async () => {
    const unreachable = new S3Client({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9',
      forcePathStyle: true,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      maxAttempts: 1,
    });
    const states = await checkDependencies({ ...stack.deps, s3: unreachable });
    expect(states.dynamodb?.status).toBe('up');
    expect(states.s3).toMatchObject({ status: 'down' });
  });

  test('an unknown API path is a catalogued 404, not an HTML page', async () => {
    const response = await fetch(`${stack.urls.api}/no-such-route`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'route not found', message: 'This API route does not exist' });
  });

  test("a body above API Gateway's 10 MB limit is refused with 413", async () => {
    const response = await fetch(`${stack.urls.api}/health`, { method: 'POST', body: Buffer.alloc(10 * 1024 * 1024 + 1) });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe('payload too large');
  });
});
