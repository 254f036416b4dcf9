// The supervisor's contact with the outside world, behind small interfaces so the shell can be driven by a fake
// clock and fake processes in unit tests: time, child processes, and whether the destinations answer.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { connect as tlsConnect, getCACertificates } from 'node:tls';
import { canonicalHost, destinationPort, isPublicAddress } from '../../lambdas/core/channels/destination-address';
import {
  ChunkStreamReader,
  chunkMessage,
  connectCommand,
  DEFAULT_CHUNK_SIZE,
  declaredChunkSize,
  MESSAGE_TYPE,
  S0_S1_BYTES,
  S0_S1_S2_BYTES,
} from './rtmp-chunks';

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
  /** The child's stdin, when it was asked for (a playlist's feed); otherwise the child's stdin is /dev/null. */
  readonly stdin?: Writable;
}

export interface ProcessRunner {
  spawn(command: string, args: readonly string[], handlers: ChildHandlers, options?: { stdin?: boolean }): ChildHandle;
}

/** What ffmpeg needs of the environment: the task's own (its run token above all) is none of its business, and
 * ffmpeg is the part of the task that talks to servers creators choose. */
const childEnvironment = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '/usr/bin:/bin' });

/**
 * Real child processes, each started through `setpriv --pdeathsig SIGKILL` (util-linux; it execs in place, so the
 * pid is the command's): if our process dies without cleaning up (kill -9), the kernel kills the child too, and
 * no orphaned ffmpeg keeps publishing to the stream key.
 */
export const childProcessRunner: ProcessRunner = {
  spawn(command, args, handlers, options = {}) {
    let child: ChildProcessByStdio<Writable | null, Readable, Readable>;
    try {
      const stdio = [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] as const;
      child = spawn('setpriv', ['--pdeathsig', 'SIGKILL', '--', command, ...args], { stdio: [...stdio], env: childEnvironment() }) as ChildProcessByStdio<
        Writable | null,
        Readable,
        Readable
      >;
    } catch (error) {
      // spawn throws at once for arguments it cannot pass (a NUL byte), and its message quotes the argument: the
      // publish URL with the stream key. Reported like a process that could not start, by error code only.
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      process.nextTick(() => handlers.onExit({ code: null, signal: null, error: new Error(`${command} could not be started (${code})`) }));
      return { pid: undefined, kill: () => undefined };
    }
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
      ...(child.stdin ? { stdin: child.stdin } : {}),
    };
  },
};

export interface ProbeResult {
  /** The RTMP server behind the URL answered the handshake. */
  answers: boolean;
  /** rtmps: the server's certificate failed verification, and why (it is never published to: ffmpeg verifies the
   * same way, TlsTrust in ffmpeg.ts). */
  certificateRefused?: string;
}

export interface ReachabilityProbe {
  probe(url: string): Promise<ProbeResult>;
  /** The RTMP chunk size the destination declares when a publisher connects: null when it declares none (ffmpeg
   * then sends in RTMP's 128-byte chunks, docs/decisions.md), undefined when it could not be told. */
  declaredChunkSize?(url: string): Promise<number | null | undefined>;
}

/** The task's trust for RTMPS destinations: locally the stack's test CA (LOOPCAST_DESTINATION_CA_FILE, set by
 * local/stack.ts only), in AWS the system's trust store. */
export const destinationCaFile = (env: NodeJS.ProcessEnv): string | undefined => env.LOOPCAST_DESTINATION_CA_FILE || undefined;

/** RTMP's C0 (version 3) and C1 (time, zero, 1528 random bytes); a live server answers with S0 and S1. */
const handshakeStart = () => Buffer.concat([Buffer.from([3]), Buffer.alloc(8), randomBytes(1528)]);

/** Outside the local stack (STAGE set and not `local`), destinations must be on the public internet: the task
 * must never dial into our own network (security audit L3). Standalone runs (no STAGE) are for local tests. */
export const publicAddressesOnly = (env: NodeJS.ProcessEnv): boolean => env.STAGE !== undefined && env.STAGE !== 'local';

/** dns.lookup for net.connect that fails unless every address of the name is public: the connection goes to an
 * address checked at the moment of connecting, whatever the name resolved to when the destination was saved. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as LookupAddress[];
    if (!list.length || !list.every((entry) => isPublicAddress(entry.address))) {
      return callback(Object.assign(new Error('the destination resolves to an address that is not public'), { code: 'EACCES' }), '', 0);
    }
    if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
};

/** Who may be dialled, and whom an RTMPS server's certificate must be signed by. */
export interface DialOptions {
  publicOnly?: boolean;
  caFile?: string;
}

/** A connection to a destination: TCP for rtmp://, TLS for rtmps:// (verified against `roots`, with the host name);
 * with `publicOnly`, only to public addresses, checked when connecting. undefined when the address is refused
 * outright. The probes and the chunk-size relay (chunk-relay.ts) dial the same way. */
export function dialDestination(url: string, options: { publicOnly?: boolean; roots?: () => string | string[] } = {}): Socket | undefined {
  const target = new URL(url);
  const port = destinationPort(target);
  const host = canonicalHost(target.hostname);
  if (options.publicOnly && isIP(host) && !isPublicAddress(host)) return undefined;
  const lookup = options.publicOnly ? { lookup: publicOnlyLookup } : {};
  if (target.protocol !== 'rtmps:') return connect({ host, port, ...lookup });
  return tlsConnect({ host, port, ca: options.roots?.(), rejectUnauthorized: true, ...(isIP(host) ? {} : { servername: host }), ...lookup });
}

/**
 * Opens TCP (TLS for rtmps), sends the first RTMP handshake message and waits for the server's answer, then hangs
 * up. Accepting TCP is not enough: a frozen server's kernel still accepts connections, and ffmpeg would then wait
 * in the handshake (for ever inside the tee muxer, where -rw_timeout does not reach). Every spawn of ffmpeg
 * follows a probe and gets only the destinations that answered, so with `publicOnly` ffmpeg never gets a
 * destination whose address was not public when it was dialled. An RTMPS server's certificate is verified as
 * ffmpeg verifies it (the chain to `caFile`, else to the system's trust store, and the host name); a refused one
 * is reported with the reason. `declaredChunkSize` goes on past the handshake: C2, a `connect` command, and the
 * server's answers up to the command's result, where a server that sets its chunk size has said so.
 */
export function rtmpHandshakeProbe(timeoutMs = 3_000, options: DialOptions = {}): ReachabilityProbe {
  // The same roots as ffmpeg's GnuTLS: the system's store, not Node's bundled one (read once: the probe runs often).
  let roots: string | string[] | undefined;
  const trustedRoots = () => (roots ??= options.caFile ? readFileSync(options.caFile, 'utf8') : getCACertificates('system'));
  /** A connection to the destination that sends C0 and C1 once connected, and calls `done` once with the first
   * outcome: `finish`'s, or `failed`'s on an error, the server hanging up or the timeout. undefined when publicOnly
   * refuses the address outright. */
  const open = <T>(
    url: string,
    failed: (error?: NodeJS.ErrnoException) => T,
    done: (result: T) => void,
  ): { socket: Socket; finish(result: T): void } | undefined => {
    const secure = new URL(url).protocol === 'rtmps:';
    const socket = dialDestination(url, { ...(options.publicOnly ? { publicOnly: true } : {}), roots: trustedRoots });
    if (!socket) return undefined;
    let finished = false;
    const finish = (result: T) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      done(result);
    };
    const timer = setTimeout(() => finish(failed()), timeoutMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(handshakeStart()));
    socket.once('error', (error: NodeJS.ErrnoException) => finish(failed(error)));
    socket.once('close', () => finish(failed()));
    return { socket, finish };
  };
  return {
    probe: (url) =>
      new Promise((resolve) => {
        const failed = (error?: NodeJS.ErrnoException): ProbeResult => {
          const refused = error && certificateError(error);
          return refused ? { answers: false, certificateRefused: refused } : { answers: false };
        };
        const connection = open(url, failed, resolve);
        if (!connection) return resolve({ answers: false });
        let received = 0;
        connection.socket.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received >= S0_S1_BYTES) connection.finish({ answers: true });
        });
      }),
    declaredChunkSize: (url) =>
      new Promise((resolve) => {
        const connection = open<number | null | undefined>(url, () => undefined, resolve);
        if (!connection) return resolve(undefined);
        const { socket, finish } = connection;
        const reader = new ChunkStreamReader();
        let handshake: Buffer | undefined = Buffer.alloc(0);
        let declared: number | null = null;
        socket.on('data', (chunk: Buffer) => {
          if (handshake) {
            handshake = Buffer.concat([handshake, chunk]);
            if (handshake.length < S0_S1_S2_BYTES) return;
            // C2 echoes S1; then the publisher's first command. The server answers it with its settings (a Set
            // Chunk Size among them, when it sends one) before the command's result.
            socket.write(Buffer.concat([handshake.subarray(1, S0_S1_BYTES), chunkMessage(connectCommand(new URL(url)), DEFAULT_CHUNK_SIZE)]));
            chunk = handshake.subarray(S0_S1_S2_BYTES);
            handshake = undefined;
          }
          try {
            for (const message of reader.push(chunk)) {
              declared = declaredChunkSize(message) ?? declared;
              if (message.type === MESSAGE_TYPE.amf0Command) return finish(declared);
            }
          } catch {
            finish(undefined); // bytes that are no chunk stream: nothing to tell, and never a crash of the task
          }
        });
      }),
  };
}

/** OpenSSL's verification failures (CERT_HAS_EXPIRED, UNABLE_TO_VERIFY_LEAF_SIGNATURE, SELF_SIGNED_CERT_IN_CHAIN,
 * ...) and Node's host name check, as one line the creator can read; undefined for any other error. */
function certificateError(error: NodeJS.ErrnoException): string | undefined {
  const code = error.code ?? '';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `the certificate is not for this server name (${error.message})`;
  const verification = /CERT|SIGNATURE|ISSUER|SELF_SIGNED|CHAIN|VERIFY/.test(code) && !code.startsWith('ERR_SSL');
  return verification ? `the certificate could not be verified (${code}: ${error.message})` : undefined;
}
