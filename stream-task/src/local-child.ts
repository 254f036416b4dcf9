// How the local stack's tests and benches start a stream-task as a child process: Node running the task's bundle
// (stream-task/bundle.ts, the file the container runs), the spec in the environment, heartbeats read from its
// stdout (one JSON object per line, see parseHeartbeatLine).
import { join } from 'node:path';
import type { StreamTaskSpecInput } from '../../lambdas/contract/stream-task';
import { localStreamTaskBundle } from '../bundle';

const repositoryRoot = join(import.meta.dirname, '..', '..');

export interface ChildCommand {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** `spawn(c.command, c.args, { cwd: c.cwd, env: c.env })`; set LOOPCAST_S3_ENDPOINT in `env` for s3:// inputs. */
export async function localStreamTaskCommand(spec: StreamTaskSpecInput, env: NodeJS.ProcessEnv = process.env): Promise<ChildCommand> {
  return {
    command: process.execPath,
    args: [await localStreamTaskBundle()],
    cwd: repositoryRoot,
    env: { ...env, LOOPCAST_STREAM_SPEC: JSON.stringify(spec) },
  };
}
