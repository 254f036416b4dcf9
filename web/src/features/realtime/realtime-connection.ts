// The page's one realtime connection (spec section 4): created the first time a signed-in page asks for it, then
// reused by every page and every language (each /app language has its own data cache, so caches subscribe and
// unsubscribe while the connection stays). Signing out loads the login page afresh, which ends it. A connection
// that gave up is tried again when the browser comes back online.
import type { RealtimeEvent } from '@loopcast/contract/realtime-events';
import { api } from '../../api/client';
import { isSignedIn } from '../../lib/session';
import { createRealtimeClient, type RealtimeClient, type RealtimeStatus, type RealtimeTicket } from './realtime-client';

type EventListener = (event: RealtimeEvent) => void;

let client: RealtimeClient | undefined;
const eventListeners = new Set<EventListener>();
const openListeners = new Set<() => void>();
const statusListeners = new Set<() => void>();

const restartWhenOnline = () => client?.start();

/** Opens the connection unless it exists or nobody is signed in. */
export function ensureRealtimeConnection(): void {
  if (client || !isSignedIn()) return;
  client = createRealtimeClient({
    fetchTicket: () => api.get<RealtimeTicket>('/ws'),
    onEvent: (event) => eventListeners.forEach((listener) => listener(event)),
    onStatus: (status) => {
      if (status === 'open') openListeners.forEach((listener) => listener());
      statusListeners.forEach((listener) => listener());
    },
  });
  window.addEventListener('online', restartWhenOnline);
  client.start();
}

export const realtimeStatus = (): RealtimeStatus => client?.status ?? 'stopped';

const listen =
  <T>(listeners: Set<T>) =>
  (listener: T): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

export const onRealtimeEvent = listen(eventListeners);
/** Called on every successful (re)connection. */
export const onRealtimeOpen = listen(openListeners);
export const onRealtimeStatusChange = listen(statusListeners);
