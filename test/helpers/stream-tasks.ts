// The stream tasks of a local stack as the operating system sees them (/proc), not as the runner's bookkeeping
// says: which stream-task processes run for a stream, which ffmpeg publishes for them, what the destination
// (nginx-rtmp) counts as publishers, and the credentials a task was started with (to play a second task by force).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { repoRoot } from '../../local/paths';
import { LOCAL_STREAM_TASK_BUNDLE, localStreamTaskBundle } from '../../stream-task/bundle';
import { alive, commandLine, descendants } from './processes';

export interface TaskProcess {
  pid: number;
  environment: Record<string, string>;
}

function environmentOf(pid: number): Record<string, string> | undefined {
  try {
    return Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    );
  } catch {
    return undefined;
  }
}

/** Every stream-task process of this stream on the machine, whoever started it. */
export function streamTaskProcesses(streamId: string): TaskProcess[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .flatMap((pid) => {
      if (!alive(pid) || !commandLine(pid).includes(LOCAL_STREAM_TASK_BUNDLE)) return [];
      const environment = environmentOf(pid);
      return environment?.LOOPCAST_STREAM_ID === streamId ? [{ pid, environment }] : [];
    });
}

/** The looping ffmpeg processes (not preview grabs) under this stream's tasks. */
export function publishingFfmpegs(streamId: string): number[] {
  return streamTaskProcesses(streamId)
    .flatMap((task) => descendants(task.pid))
    .filter((pid) => alive(pid) && commandLine(pid).includes('-stream_loop'));
}

/** Publishing clients nginx-rtmp counts on a stream key (its rtmp_stat page). */
export async function rtmpPublishers(stack: { urls: { hls?: string } }, key: string): Promise<number> {
  const xml = await (await fetch(`${stack.urls.hls!.replace(/\/hls$/, '')}/stat`)).text();
  const stream = [...xml.matchAll(/<stream>([\s\S]*?)<\/stream>/g)].map((match) => match[1]!).find((body) => body.includes(`<name>${key}</name>`));
  return stream ? [...stream.matchAll(/<client>([\s\S]*?)<\/client>/g)].filter((client) => client[1]!.includes('<publishing/>')).length : 0;
}

/** A second stream-task with the first one's run and run token but its own instance id: what a duplicate launch
 * (an ECS task outliving its execution, a retried RunTask) would be. */
export async function startDuplicateTask(task: TaskProcess): Promise<ChildProcess> {
  const child = spawn(process.execPath, [await localStreamTaskBundle()], {
    cwd: repoRoot,
    env: { ...task.environment, LOOPCAST_TASK_ID: `duplicate-${task.environment.LOOPCAST_TASK_ID}` },
    stdio: 'ignore',
  });
  return child;
}

/** How the task API sees a task: its run token and instance id, as the task presents them. */
export function taskCredentials(task: TaskProcess) {
  const {
    LOOPCAST_USER_ID: userId,
    LOOPCAST_STREAM_ID: streamId,
    LOOPCAST_TASK_ID: instanceId,
    LOOPCAST_TASK_TOKEN: token,
    LOOPCAST_API_URL: apiUrl,
  } = task.environment;
  return { caller: { userId: userId!, streamId: streamId!, instanceId: instanceId! }, token: token!, apiUrl: apiUrl! };
}
