import { createServer } from 'node:net';

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

/** Resolves when the port can be bound on 127.0.0.1, rejects with PortInUseError otherwise. */
export function assertPortFree(port: number, what: string, envVar?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new PortInUseError(port, what, envVar) : error),
    );
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve()));
  });
}

function probePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1' }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Ports this process handed out already. The kernel may offer a port again as soon as its probe closed, and two
 * servers started at once (two nginx test destinations) then bound the same one: the second's clients reached the
 * first, with the other's certificate. */
const handedOut = new Set<number>();

/** A port the kernel says is free right now, and not handed out before by this process (for tests and for children
 * that need an explicit port). */
export async function freePort(): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await probePort();
    if (!handedOut.has(port) || attempt === 50) {
      handedOut.add(port);
      return port;
    }
  }
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
