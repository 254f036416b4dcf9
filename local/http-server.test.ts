// The local origin's own HTTP handling (security audit L1, L2): an undecodable path parameter is a 400, never a
// 500; a body over the 10 MB limit is a 413 that closes the connection, so the client's next request on a
// kept-alive connection is answered instead of hanging behind the unread bytes.
import { Agent, request } from 'node:http';
import { startTestStack } from '../test/helpers/stack';
import type { LocalStack } from './stack';
import { MAX_PAYLOAD_BYTES } from './api-gateway';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

function send(agent: Agent, method: string, path: string, body?: Buffer): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const origin = new URL(stack.urls.web);
  return new Promise((resolve, reject) => {
    const call = request({ agent, host: origin.hostname, port: origin.port, method, path, timeout: 10_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    call.once('timeout', () => call.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
    call.once('error', reject);
    // The client may still be sending when the server has answered and hung up: that is the point.
    call.end(body);
  });
}

test.each(['/api/media/%/thumbnail', '/api/streams/%E0%A4%A', '/api/videos/%zz'])('%s is a catalogued 400, not a 500', async (path) => {
  const answer = await send(new Agent(), 'GET', path);
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid request' });
});

test('after a 413 the connection is closed, and the next request of the same client is answered', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const tooLarge = await send(agent, 'PUT', '/api/streams/x/thumbnail', Buffer.alloc(MAX_PAYLOAD_BYTES + 1024 * 1024)).catch(
    (error: NodeJS.ErrnoException) => ({ resetCode: error.code }),
  );
  // The 413 arrives before the client has sent everything; some kernels reset the socket under the client first.
  // (Node's socket errors come from another realm than the test's, so `instanceof Error` cannot tell them apart.)
  if ('resetCode' in tooLarge) {
    expect(tooLarge.resetCode).toMatch(/^(ECONNRESET|EPIPE)$/);
  } else {
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.connection).toBe('close');
    expect(JSON.parse(tooLarge.body)).toMatchObject({ error: 'payload too large' });
  }
  const health = await send(agent, 'GET', '/api/health');
  expect(health.status).toBe(200);
  agent.destroy();
});
