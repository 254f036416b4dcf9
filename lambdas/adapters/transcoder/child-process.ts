// Runs ffmpeg and ffprobe as direct children (no shell), asynchronously, so the event loop (and an in-process
// s3rver) keeps running while they work. Children still running when our process exits are killed with it.
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';

export interface RunOptions {
  /** Called with each chunk of stdout (ffmpeg's `-progress pipe:1` blocks). */
  onStdout?: (chunk: string) => void;
  /** Niceness 0-19: higher yields the CPU to everything else on the machine. */
  niceness?: number;
  /** Aborting kills the child (SIGKILL: ffmpeg may ignore SIGTERM while blocked on I/O). */
  signal?: AbortSignal;
}

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  /** The end of stderr, for error messages. */
  stderrTail: string;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

const stderrTailLimit = 4000;

export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const child of running) child.kill('SIGKILL');
    });
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.signal ? { signal: options.signal, killSignal: 'SIGKILL' } : {}),
    });
    running.add(child);
    if (options.niceness && child.pid !== undefined) {
      try {
        setPriority(child.pid, options.niceness);
      } catch {
        // The child already exited; its exit code tells what happened.
      }
    }
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (options.onStdout) options.onStdout(chunk);
      else stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-stderrTailLimit);
    });
    child.once('error', (error) => {
      running.delete(child);
      reject(error);
    });
    child.once('close', (exitCode) => {
      running.delete(child);
      resolve({ exitCode, stdout, stderrTail: stderr.trim() });
    });
  });
}
