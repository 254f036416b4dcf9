// The child processes of bench/upload.ts, bundled on their own by esbuild (as Lambda runs the handler):
//   s3 <directory>          the local S3 (local/s3-server.ts) storing under the directory;
//   server <json>           the tus handler the Lambda runs, on the local uploads mount, with DynamoDB Local.
// Each answers its first IPC message when ready. A role imports only what it runs, and this file nothing of the
// bench itself: the bench's source block and its machine-speed reading (bench/results.ts, 16 MiB hashed at import)
// once sat in the upload server's memory, and the 16 MiB freed after the reading raised glibc's mmap threshold.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UploadConfig, UploadHooks } from '../lambdas/uploads/tus-server';

/** What `server` is started with: where its tables and bucket are, and the one bearer token it accepts. */
export interface UploadServerChildOptions {
  config: UploadConfig;
  token: string;
}

async function runS3Child(directory: string): Promise<void> {
  const { startS3Server } = await import('../local/s3-server');
  const s3 = await startS3Server({ port: 0, directory });
  process.send!({ endpoint: s3.endpoint });
  process.on('disconnect', () => void s3.stop().finally(() => process.exit(0)));
}

async function runUploadServerChild({ config, token: benchToken }: UploadServerChildOptions): Promise<void> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
  const { localCredentials } = await import('../lambdas/adapters/aws-clients');
  const { createUploadServer } = await import('../lambdas/uploads/tus-server');
  const { uploadsMount } = await import('../local/uploads-mount');
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: config.region, endpoint: config.endpoints.dynamodb!, credentials: localCredentials }));
  const hooks: UploadHooks = {
    authenticate: async (token) => (token === benchToken ? { userId: 'bench' } : undefined),
    authorizeCreation: async () => undefined,
    onUploadFinished: async () => undefined,
  };
  const mount = uploadsMount(createUploadServer({ deps: { config, db }, hooks }));
  const http = createServer((request, response) => {
    mount.handle(request, response).catch((error: unknown) => {
      console.error('upload request failed', error);
      response.destroy();
    });
  });
  http.keepAliveTimeout = 65_000;
  // What the process's memory is made of when its RSS is highest, sampled: the parent resets and asks for it.
  let atPeak = process.memoryUsage();
  setInterval(() => {
    const now = process.memoryUsage();
    if (now.rss > atPeak.rss) atPeak = now;
  }, 100).unref();
  process.on('message', (message) => {
    if (message === 'reset-memory') atPeak = process.memoryUsage();
    else if (message === 'memory') process.send!({ memory: atPeak });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  process.send!({ port: (http.address() as AddressInfo).port, prefix: mount.prefix });
  process.on('disconnect', () => process.exit(0));
}

const [role, argument] = process.argv.slice(2);
if (role === 's3') await runS3Child(argument!);
else if (role === 'server') await runUploadServerChild(JSON.parse(argument!) as UploadServerChildOptions);
else throw new Error(`bench/upload-children.ts: unknown role ${role} (s3 or server)`);
