// The supervisor's contact with the outside world, behind small interfaces so the shell can be driven by a fake
// clock and fake processes in unit tests: time, child processes, and TCP reachability of the destinations.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

export interface Clock {
  now(): number;
  /** Calls `fn` every `ms`; returns a function that cancels it. */
  every(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    return () => clearInterval(timer);
  },
};

export interface ChildHandlers {
  onStdoutLine(line: string): void;
  onStderrLine(line: string): void;
  /** Once, when the process is gone: exit code, or the signal that killed it, or the error that kept it from starting. */
  onExit(result: { code: number | null; signal: NodeJS.Signals | null; error?: Error }): void;
}

export interface ChildHandle {
  readonly pid: number | undefined;
  kill(signal: NodeJS.Signals): void;
}

export interface ProcessRunner {
  spawn(command: string, args: readonly string[], handlers: ChildHandlers): ChildHandle;
}

/**
 * Real child processes, each started through `setpriv --pdeathsig SIGKILL` (util-linux; it execs in place, so the
 * pid is the command's): if our process dies without cleaning up (kill -9), the kernel kills the child too, and
 * no orphaned ffmpeg keeps publishing to the stream key.
 */
export const childProcessRunner: ProcessRunner = {
  spawn(command, args, handlers) {
    const child = spawn('setpriv', ['--pdeathsig', 'SIGKILL', '--', command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: child.stdout }).on('line', (line) => handlers.onStdoutLine(line));
    createInterface({ input: child.stderr }).on('line', (line) => handlers.onStderrLine(line));
    let exited = false;
    const exit = (result: { code: number | null; signal: NodeJS.Signals | null; error?: Error }) => {
      if (exited) return;
      exited = true;
      handlers.onExit(result);
    };
    child.once('error', (error) => exit({ code: null, signal: null, error }));
    // 'close' (not 'exit'): all output has been read by then, so the last stderr line explains the exit.
    child.once('close', (code, signal) => exit({ code, signal }));
    return {
      pid: child.pid,
      kill: (signal) => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      },
    };
  },
};

export interface ReachabilityProbe {
  /** True when at least one of the RTMP URLs accepts a TCP connection. */
  anyReachable(urls: readonly string[]): Promise<boolean>;
}

const DEFAULT_PORTS: Record<string, number> = { 'rtmp:': 1935, 'rtmps:': 443 };

function tcpAccepts(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export function tcpReachabilityProbe(timeoutMs = 1_000): ReachabilityProbe {
  return {
    async anyReachable(urls) {
      const results = await Promise.all(
        urls.map((url) => {
          const parsed = new URL(url);
          const port = parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol];
          return port ? tcpAccepts(parsed.hostname, port, timeoutMs) : Promise.resolve(false);
        }),
      );
      return results.includes(true);
    },
  };
}
