import type { RealtimeEvent, RealtimePublisher } from '../../contract/realtime-events';
import { logger } from '../logger';
import type { ConnectionsStore } from '../dynamo/connections-store';
import type { ConnectionPoster } from './connection-poster';

/** PostToConnection requests in flight at once, per publish (and the client's sockets: deps.ts). Enough to hide
 * each request's round trip; a bounded number, so a broadcast to thousands of connections sends them in order
 * (the first connections get the event first) instead of starting thousands of SDK pipelines at once, whose
 * promises and buffers cost more CPU and memory than the requests themselves (docs/realtime.md). */
export const POSTS_IN_FLIGHT = 64;

/**
 * Pushes events through API Gateway's WebSocket management API (PostToConnection, connection-poster.ts) to every
 * connection of the user. The local realtime server speaks the same wire protocol, so this one implementation serves both.
 * A connection that is gone (410) is removed; a failure on one connection never blocks the others. Each broadcast's
 * duration goes to `recordBroadcast` (the RealtimeBroadcastSeconds metric: deps.ts).
 */
export class ManagementApiPublisher implements RealtimePublisher {
  constructor(
    private readonly poster: Pick<ConnectionPoster, 'post'>,
    private readonly connections: Pick<ConnectionsStore, 'ofUser' | 'remove'>,
    private readonly now: () => Date,
    private readonly recordBroadcast: (seconds: number) => void,
  ) {}

  async publish(userId: string, event: RealtimeEvent): Promise<number> {
    const started = performance.now();
    const data = new TextEncoder().encode(JSON.stringify(event));
    const ids = await this.connections.ofUser(userId, this.now());
    let next = 0;
    const sendNext = async (): Promise<void> => {
      while (next < ids.length) await this.post(ids[next++]!, data);
    };
    await Promise.all(Array.from({ length: Math.min(POSTS_IN_FLIGHT, ids.length) }, sendNext));
    if (ids.length) this.recordBroadcast((performance.now() - started) / 1000);
    return ids.length;
  }

  private async post(connectionId: string, data: Uint8Array): Promise<void> {
    try {
      if ((await this.poster.post(connectionId, data)) === 'gone') await this.connections.remove(connectionId);
    } catch (error) {
      logger.warn('realtime delivery failed', { connectionId, error: error as Error });
    }
  }
}
