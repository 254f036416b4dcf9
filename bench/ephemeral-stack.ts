// A throwaway local stack for benchmarks: its own in-memory DynamoDB Local and s3rver on free ports, data in
// a temporary folder that is removed afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../local/ports';
import { startLocalStack, type LocalStack } from '../local/stack';

export async function startEphemeralStack(options: { rtmp?: boolean; rtmpChunkSize?: number } = {}): Promise<LocalStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loopcast-bench-'));
  const stack = await startLocalStack({
    dataDir,
    persistent: false,
    namePrefix: 'bench-',
    ports: {
      http: 0,
      realtime: 0,
      dynamodb: await freePort(),
      s3: 0,
      rtmp: options.rtmp ? await freePort() : 0,
      hls: options.rtmp ? await freePort() : 0,
    },
    rtmp: options.rtmp ?? false,
    ...(options.rtmpChunkSize ? { rtmpChunkSize: options.rtmpChunkSize } : {}),
  });
  return {
    ...stack,
    stop: async () => {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
