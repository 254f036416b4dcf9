// A user's realtime connection as the web app opens it (GET /ws for the address and token, then the WebSocket),
// collecting every event pushed to it.
import type { RealtimeEvent } from '../../lambdas/contract/realtime-events';
import type { LocalStack } from '../../local/stack';
import { api } from './accounts';

export async function listenRealtime(stack: LocalStack, token: string): Promise<{ events: RealtimeEvent[]; close(): void }> {
  const { body } = await api(stack, 'GET', '/ws', { token });
  const socket = new WebSocket(`${body.url}?token=${encodeURIComponent(body.token)}`);
  const events: RealtimeEvent[] = [];
  socket.addEventListener('message', (m) => events.push(JSON.parse(String(m.data))));
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  return { events, close: () => socket.close() };
}
