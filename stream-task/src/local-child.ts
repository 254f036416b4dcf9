// How the local stack (and the tests) start a stream-task as a child process: Node with tsx, the spec in the
// environment, heartbeats read from its stdout (one JSON object per line, see parseHeartbeatLine).
import { join } from 'node:path';
import type { StreamTaskSpecInput } from '../../lambdas/contract/stream-task';

const repositoryRoot = join(import.meta.dirname, '..', '..');

export interface ChildCommand {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** `spawn(c.command, c.args, { cwd: c.cwd, env: c.env })`; set LOOPCAST_S3_ENDPOINT in `env` for s3:// inputs. */
export function localStreamTaskCommand(spec: StreamTaskSpecInput, env: NodeJS.ProcessEnv = process.env): ChildCommand {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', join(repositoryRoot, 'stream-task', 'src', 'main.ts')],
    cwd: repositoryRoot,
    env: { ...env, LOOPCAST_STREAM_SPEC: JSON.stringify(spec) },
  };
}
