import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ManagedProcessOptions {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Where stdout and stderr go; the last lines are also kept for error messages. */
  logFile: string;
  /** Signal for a graceful stop (nginx: SIGQUIT would wait for clients; SIGTERM is its fast shutdown). */
  stopSignal?: NodeJS.Signals;
  stopTimeoutMs?: number;
}

const running = new Set<ManagedProcess>();

/**
 * A child process of the local stack (java, nginx, ffmpeg...) that is always stopped with us: direct child
 * (no shell in between, so signals reach it), output to a log file, and SIGKILL if it does not stop in time. Started
 * through `setpriv --pdeathsig` (util-linux; it execs in place): if the stack's process dies without stopping it
 * (kill -9), the kernel sends it its stop signal, so no DynamoDB Local or nginx outlives the stack and holds its ports.
 */
export class ManagedProcess {
  readonly child: ChildProcess;
  private exited = false;
  private readonly tail: string[] = [];
  private readonly exit: Promise<number | null>;

  constructor(readonly options: ManagedProcessOptions) {
    mkdirSync(dirname(options.logFile), { recursive: true });
    const log = createWriteStream(options.logFile, { flags: 'a' });
    this.child = spawn('setpriv', ['--pdeathsig', options.stopSignal ?? 'SIGTERM', '--', options.command, ...options.args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      log.write(chunk);
      this.tail.push(...chunk.toString().split('\n').filter(Boolean));
      this.tail.splice(0, Math.max(0, this.tail.length - 20));
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exit = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.tail.push(String(error));
        this.exited = true;
        resolve(null);
      });
      this.child.once('exit', (code) => {
        this.exited = true;
        running.delete(this);
        log.end();
        resolve(code);
      });
    });
    running.add(this);
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** The last lines the process printed, for error messages when it fails to start. */
  lastOutput(): string {
    return this.tail.join('\n');
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    this.child.kill(this.options.stopSignal ?? 'SIGTERM');
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), this.options.stopTimeoutMs ?? 5000).unref());
    if ((await Promise.race([this.exit, timeout])) === 'timeout') {
      this.child.kill('SIGKILL');
      await this.exit;
    }
  }
}

/** Last resort when our own process exits abruptly: no orphaned java, nginx or ffmpeg. */
process.once('exit', () => {
  for (const proc of running) proc.child.kill('SIGKILL');
});
