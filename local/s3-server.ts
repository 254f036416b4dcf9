import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import { PortInUseError } from './ports';

export interface S3Server {
  endpoint: string;
  stop(): Promise<void>;
}

/** s3rver (an S3 API on the file system) in this process, storing objects under `directory`. */
export async function startS3Server(options: { port: number; directory: string }): Promise<S3Server> {
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    directory: options.directory,
    silent: true,
    vhostBuckets: false,
  });
  try {
    const { port } = await server.run();
    return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(options.port, 'S3 (s3rver)', 'LOOPCAST_S3_PORT');
    throw error;
  }
}
