import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { TASK_ENVIRONMENT } from '../../contract/stream-lifecycle';
import type { StreamRunner, StreamTask } from '../../core/streams/ports';

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

interface LocalTaskProcess {
  pid: number;
  environment: Map<string, string>;
}

/** The local stack's stream-task processes: it starts each with its run and task id in its environment. */
async function taskProcesses(): Promise<LocalTaskProcess[]> {
  if (!existsSync('/proc')) throw new Error('stopping a local stream task needs /proc (Linux)');
  const found: LocalTaskProcess[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [environ, cmdline] = await Promise.all([readFile(`/proc/${entry}/environ`, 'utf8'), readFile(`/proc/${entry}/cmdline`, 'utf8')]);
      const environment = new Map(
        environ
          .split('\0')
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]),
      );
      // ffmpeg inherits the environment too; only the stream-task process itself is stopped, as ECS would.
      if (environment.has('LOOPCAST_TASK_ID') && environment.has(TASK_ENVIRONMENT.streamId) && cmdline.includes('stream-task'))
        found.push({ pid: Number(entry), environment });
    } catch {
      // Gone meanwhile, or another user's process.
    }
  }
  return found;
}

async function stopProcesses(pids: number[]): Promise<void> {
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  for (const pid of pids) {
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (alive(pid)) signal(pid, 'SIGKILL');
  }
}

/**
 * The support tool's stream runner for the local stack. The tool runs in its own process, so it cannot reach the
 * lifecycle inside `npm start`; it ends a stream's tasks as ECS StopTask does (SIGTERM, SIGKILL after the stop
 * timeout), finding them by the ids in their environment (/proc: the local stack runs on Linux). The stop then
 * finishes the run, and the stack's lifecycle, seeing the task end, finds the run over and ends the execution.
 */
export class LocalStreamTaskStopper implements StreamRunner {
  async launch(): Promise<void> {
    throw new Error('the support tool stops streams; it never starts them');
  }

  /** Not reachable from here: the execution ends by itself once its task is gone and the run is over. */
  async stopExecution(): Promise<void> {}

  async endStreamTasks(streamId: string, taskIds: readonly string[]): Promise<void> {
    const processes = await taskProcesses();
    await stopProcesses(
      processes
        .filter((p) => p.environment.get(TASK_ENVIRONMENT.streamId) === streamId || taskIds.includes(p.environment.get('LOOPCAST_TASK_ID')!))
        .map((p) => p.pid),
    );
  }

  async runningExecutions(): Promise<Set<string>> {
    throw new Error("the support tool cannot see the local stack's lifecycle executions");
  }

  async tasks(): Promise<StreamTask[]> {
    return (await taskProcesses()).map(({ environment }) => ({
      taskId: environment.get('LOOPCAST_TASK_ID')!,
      userId: environment.get(TASK_ENVIRONMENT.userId) ?? '',
      streamId: environment.get(TASK_ENVIRONMENT.streamId)!,
      runId: environment.get(TASK_ENVIRONMENT.runId) ?? '',
      startedAt: new Date(0).toISOString(),
    }));
  }

  async endTasks(taskIds: readonly string[]): Promise<void> {
    const processes = await taskProcesses();
    await stopProcesses(processes.filter((p) => taskIds.includes(p.environment.get('LOOPCAST_TASK_ID')!)).map((p) => p.pid));
  }
}
