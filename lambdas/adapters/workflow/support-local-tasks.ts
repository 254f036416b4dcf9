import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { StreamRun, StreamRunner } from '../../core/streams/ports';

const STOP_TIMEOUT_MS = 15_000;

/** Running, not exited (an exited child stays a zombie until its parent reaps it). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Pids of stream-task processes of a run: the local stack starts each with the run id in its environment. */
async function taskProcesses(runId: string): Promise<number[]> {
  const marker = `LOOPCAST_RUN_ID=${runId}`;
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [environ, cmdline] = await Promise.all([readFile(`/proc/${entry}/environ`, 'utf8'), readFile(`/proc/${entry}/cmdline`, 'utf8')]);
      // ffmpeg inherits the environment too; only the stream-task process itself is stopped, as ECS would.
      if (environ.split('\0').includes(marker) && cmdline.includes('stream-task')) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or another user's process.
    }
  }
  return pids;
}

/**
 * The support tool's stream runner for the local stack. The tool runs in its own process, so it cannot reach the
 * runner inside `npm start`; it stops a run's task as ECS StopTask does (SIGTERM, SIGKILL after the stop timeout),
 * finding it by the run id in its environment (/proc: the local stack runs on Linux). The local stack's lifecycle
 * then sees the task end, finds the stream stopped, and ends the execution.
 */
export class LocalStreamTaskStopper implements StreamRunner {
  async launch(): Promise<void> {
    throw new Error('the support tool stops streams; it never starts them');
  }

  async stop(run: StreamRun): Promise<void> {
    if (!existsSync('/proc')) throw new Error('stopping a local stream task needs /proc (Linux)');
    const pids = await taskProcesses(run.runId);
    for (const pid of pids) signal(pid, 'SIGTERM');
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    for (const pid of pids) {
      while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      if (alive(pid)) signal(pid, 'SIGKILL');
    }
  }
}
