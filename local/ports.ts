import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A clear, actionable error instead of EADDRINUSE's stack trace. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly what: string,
    readonly envVar?: string,
  ) {
    super(
      `Port ${port} (${what}) is already in use by another program.` +
        (envVar ? ` Stop that program or choose another port, e.g. ${envVar}=${port + 10} npm start` : ''),
    );
    this.name = 'PortInUseError';
  }
}

/** Binds the port on 127.0.0.1 and lets it go: undefined when that worked, else why not. */
function tryBind(port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', resolve);
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/** Resolves when the port can be bound on 127.0.0.1, rejects with PortInUseError otherwise. */
export async function assertPortFree(port: number, what: string, envVar?: string): Promise<void> {
  const error = await tryBind(port);
  if (error) throw error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new PortInUseError(port, what, envVar) : error;
}

const FIRST_HANDED_OUT_PORT = 20_000;
const DEFAULT_EPHEMERAL_START = 32_768;
/** A claim older than this belongs to a process that is gone, or to a server that bound its port long since. */
const CLAIM_LIFETIME_MS = 60 * 60_000;

/** The first port of the kernel's ephemeral range: below it, no `listen(0)` and no outgoing connection is given a
 * port by the kernel. */
export function ephemeralRangeStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > FIRST_HANDED_OUT_PORT + 1000 ? first : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
}

/** Claims the port for this process against every other process that hands out ports with this function: a file
 * created exclusively, or one whose claim has expired. */
function claim(directory: string, port: number): boolean {
  const file = join(directory, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    if (Date.now() - statSync(file).mtimeMs < CLAIM_LIFETIME_MS) return false;
    utimesSync(file, new Date(), new Date());
    return true;
  } catch {
    return false;
  }
}

/** Ports this process handed out already. */
const handedOut = new Set<number>();

/** A port that is free now and stays free until its server binds it, for tests and for children that need an
 * explicit port. A port the kernel offered (`listen(0)`) was not enough: the port stays in the kernel's ephemeral
 * range, and in the seconds before nginx bound it another test process's `listen(0)` was given it (a clean run
 * failed so with four test files at once). So ports come from below that range, where the kernel hands out none,
 * and each is claimed across processes (a file per port) and within this one. */
export async function freePort(): Promise<number> {
  // A test run's TMPDIR is its own folder (test/helpers/global-setup.ts): its claims go with it.
  const directory = join(tmpdir(), 'loopcast-port-claims');
  mkdirSync(directory, { recursive: true });
  const span = ephemeralRangeStart() - FIRST_HANDED_OUT_PORT;
  for (let attempt = 1; attempt <= 200; attempt++) {
    const port = FIRST_HANDED_OUT_PORT + randomInt(span);
    if (handedOut.has(port) || !claim(directory, port)) continue;
    handedOut.add(port);
    if (!(await tryBind(port))) return port;
  }
  throw new Error(`no free port between ${FIRST_HANDED_OUT_PORT} and ${FIRST_HANDED_OUT_PORT + span} after 200 tries`);
}

/** Polls until something accepts TCP connections on the port, or fails after the timeout. */
export async function waitForPort(port: number, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (!isAlive()) throw new Error(`process exited before port ${port} opened`);
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
