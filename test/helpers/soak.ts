// Watching one running stream for a long time, as the long-run API test (100 seams) and `npm run bench:soak`
// (1,000 seams and more) do: a player reads every packet at the destination, and every `checkEveryMs` the API, the
// processes on the machine and the destination's own count of publishers are read, with the stream task's and its
// ffmpeg's memory and CPU.
import { cpuSeconds, residentSet } from '../../bench/proc';
import { api, type StackAccess } from './accounts';
import { RtmpPlayer, type PlayerFigures } from './player';
import { publishingFfmpegs, rtmpPublishers, streamTaskProcesses } from './stream-tasks';

export interface SoakCheck {
  /** Seconds since the soak began. */
  at: number;
  status: string;
  /** Restarts the creator sees: the lifecycle's plus the task's own ffmpeg restarts. */
  restarts: number;
  loops: number;
  taskPids: number[];
  ffmpegPids: number[];
  publishers: number;
  /** Resident memory (bytes; its anonymous part apart) and CPU seconds so far of the stream task (Node) and its
   * ffmpeg, when there is one each. */
  supervisor?: ProcessFigures;
  ffmpeg?: ProcessFigures;
}

export interface SoakFigures {
  checks: SoakCheck[];
  player: PlayerFigures;
}

interface ProcessFigures {
  rss: number;
  anonymous: number;
  cpuSeconds: number;
}

function processFigures(pid: number | undefined): ProcessFigures | undefined {
  if (pid === undefined) return undefined;
  try {
    const memory = residentSet(pid);
    return { rss: memory.now, anonymous: memory.anonymous, cpuSeconds: cpuSeconds(pid) };
  } catch {
    return undefined; // gone between the listing and the reading
  }
}

export async function soak(options: {
  stack: StackAccess & { urls: { hls?: string } };
  token: string;
  streamId: string;
  /** The stream key at the stack's RTMP server. */
  key: string;
  seconds: number;
  checkEveryMs: number;
  /** Called with each check as it is made (the test asserts there, the bench prints). */
  onCheck?: (check: SoakCheck) => void;
}): Promise<SoakFigures> {
  const { stack, token, streamId, key } = options;
  const player = new RtmpPlayer(`${stack.urls.rtmp}/${key}`);
  const began = Date.now();
  const checks: SoakCheck[] = [];
  try {
    while (Date.now() - began < options.seconds * 1000) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(options.checkEveryMs, began + options.seconds * 1000 - Date.now())));
      const { body: stream } = await api(stack, 'GET', `/streams/${streamId}`, { token });
      const taskPids = streamTaskProcesses(streamId).map((task) => task.pid);
      const ffmpegPids = publishingFfmpegs(streamId);
      const check: SoakCheck = {
        at: Math.round((Date.now() - began) / 1000),
        status: stream.status,
        restarts: stream.restarts + (stream.health?.taskRestarts ?? 0),
        loops: stream.health?.loops ?? 0,
        taskPids,
        ffmpegPids,
        publishers: await rtmpPublishers(stack, key),
        ...(taskPids.length === 1 ? { supervisor: processFigures(taskPids[0]) } : {}),
        ...(ffmpegPids.length === 1 ? { ffmpeg: processFigures(ffmpegPids[0]) } : {}),
      };
      checks.push(check);
      options.onCheck?.(check);
    }
    return { checks, player: player.snapshot };
  } finally {
    await player.stop();
  }
}
