// The browser's end of the realtime channel (docs/realtime.md, spec sections 4 and 7): a WebSocket, nothing else.
// Each connection attempt first asks `GET /api/ws` for a fresh short-lived ticket (`{ url, token }`) and opens
// `url?token=`. An attempt that fails, or a connection that drops, is retried up to 3 times with a growing delay;
// after a successful connection the count starts again. Failures are console warnings only: when the channel is
// down the pages poll instead (they read `status`), so nothing here may ever throw at the app.
import type { RealtimeEvent, RealtimeEventType } from '@loopcast/contract/realtime-events';

export type RealtimeStatus = 'connecting' | 'open' | 'down' | 'stopped';

export interface RealtimeTicket {
  url: string;
  token: string;
}

export interface RealtimeClientOptions {
  /** `GET /api/ws`: called before every attempt, as tickets expire after 5 minutes. */
  fetchTicket: () => Promise<RealtimeTicket>;
  onEvent: (event: RealtimeEvent) => void;
  /** Called on every status change, after `status` changed. */
  onStatus?: (status: RealtimeStatus) => void;
  /** Retries after a failed attempt or a dropped connection (spec section 9: 3). */
  retries?: number;
  /** Milliseconds before retry number `attempt` (1-based). */
  retryDelayMs?: (attempt: number) => number;
  WebSocket?: typeof WebSocket;
  warn?: (message: string, cause?: unknown) => void;
}

export const REALTIME_RETRIES = 3;

/** 1 s, 2 s, 4 s, each ±20 % so the tabs of many users do not reconnect in step after a server restart. */
export const defaultRetryDelayMs = (attempt: number): number => 1000 * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);

const eventTypes: ReadonlySet<RealtimeEventType> = new Set<RealtimeEventType>([
  'video.progress',
  'video.state',
  'upload.finished',
  'stream.state',
  'stream.heartbeat',
  'subscription.changed',
]);

/** A pushed message as a known event, or undefined for anything else (a newer server's event, garbage). */
export function parseRealtimeEvent(data: unknown): RealtimeEvent | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const type = (parsed as { type?: unknown }).type;
    return typeof type === 'string' && eventTypes.has(type as RealtimeEventType) ? (parsed as RealtimeEvent) : undefined;
  } catch {
    return undefined;
  }
}

export interface RealtimeClient {
  readonly status: RealtimeStatus;
  start(): void;
  /** Closes the connection for good (sign-out). */
  stop(): void;
}

export function createRealtimeClient(options: RealtimeClientOptions): RealtimeClient {
  const retries = options.retries ?? REALTIME_RETRIES;
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
  const SocketClass = options.WebSocket ?? WebSocket;
  const warn = options.warn ?? ((message: string, cause?: unknown) => console.warn(`realtime: ${message}`, ...(cause === undefined ? [] : [cause])));

  let status: RealtimeStatus = 'stopped';
  let socket: WebSocket | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Failed attempts since the last successful connection. */
  let failures = 0;
  /** Bumped by stop(): work begun before it must not touch anything afterwards. */
  let generation = 0;

  function setStatus(next: RealtimeStatus): void {
    if (status === next) return;
    status = next;
    options.onStatus?.(next);
  }

  function failed(generationOfAttempt: number, what: string, cause?: unknown): void {
    if (generationOfAttempt !== generation) return;
    socket = undefined;
    failures += 1;
    if (failures > retries) {
      warn(`${what}; giving up after ${retries} retries, pages poll instead`, cause);
      setStatus('down');
      return;
    }
    const delay = retryDelayMs(failures);
    warn(`${what}; retry ${failures} of ${retries} in ${Math.round(delay)} ms`, cause);
    setStatus('connecting');
    retryTimer = setTimeout(() => void attempt(generationOfAttempt), delay);
  }

  async function attempt(generationOfAttempt: number): Promise<void> {
    retryTimer = undefined;
    let ticket: RealtimeTicket;
    try {
      ticket = await options.fetchTicket();
    } catch (error) {
      failed(generationOfAttempt, 'no connection ticket', error);
      return;
    }
    if (generationOfAttempt !== generation) return;
    let opened = false;
    let next: WebSocket;
    try {
      next = new SocketClass(`${ticket.url}?token=${encodeURIComponent(ticket.token)}`);
    } catch (error) {
      // A malformed URL or a Content-Security-Policy that forbids the host.
      failed(generationOfAttempt, 'cannot open the connection', error);
      return;
    }
    socket = next;
    next.addEventListener('open', () => {
      if (generationOfAttempt !== generation) return;
      opened = true;
      failures = 0;
      setStatus('open');
    });
    next.addEventListener('message', (message) => {
      if (generationOfAttempt !== generation) return;
      const event = parseRealtimeEvent(message.data);
      if (!event) return;
      try {
        options.onEvent(event);
      } catch (error) {
        warn(`handling ${event.type} failed`, error);
      }
    });
    next.addEventListener('close', (close) => {
      if (generationOfAttempt !== generation || socket !== next) return;
      failed(generationOfAttempt, opened ? `connection closed (${close.code})` : `connection refused (${close.code})`);
    });
  }

  return {
    get status() {
      return status;
    },
    start() {
      if (status !== 'stopped' && status !== 'down') return;
      failures = 0;
      setStatus('connecting');
      void attempt(generation);
    },
    stop() {
      generation += 1;
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      retryTimer = undefined;
      const open = socket;
      socket = undefined;
      open?.close();
      setStatus('stopped');
    },
  };
}
