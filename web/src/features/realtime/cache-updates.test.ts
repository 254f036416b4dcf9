// Realtime events against a real react-query cache holding the API's answers under the shared keys.
import { QueryClient } from '@tanstack/react-query';
import { applyRealtimeEvent, refreshLiveQueries } from './cache-updates';

const video = (id: string, extra: Record<string, unknown> = {}) => ({ id, title: id, status: 'encoding', progress: 0, ...extra });
const stream = (id: string, extra: Record<string, unknown> = {}) => ({ id, title: id, status: 'pending', channelIds: [], ...extra });

function cache() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['videos'], { videos: [video('v1'), video('v2')] });
  client.setQueryData(['videos', 'v1'], video('v1'));
  client.setQueryData(['streams'], { streams: [stream('s1'), stream('s2')] });
  client.setQueryData(['streams', 's1'], stream('s1'));
  client.setQueryData(['subscription'], { plan: 'trial' });
  client.setQueryData(['incidents'], { incidents: [] });
  return client;
}
const stale = (client: QueryClient, key: unknown[]) => client.getQueryState(key)?.isInvalidated;

describe('realtime events in the data cache', () => {
  test('video.progress moves the item in the list and its own entry, never backwards', () => {
    const client = cache();
    applyRealtimeEvent(client, { type: 'video.progress', videoId: 'v1', percent: 40 });
    applyRealtimeEvent(client, { type: 'video.progress', videoId: 'v1', percent: 30 });
    expect(client.getQueryData(['videos'])).toEqual({ videos: [video('v1', { progress: 40 }), video('v2')] });
    expect(client.getQueryData(['videos', 'v1'])).toEqual(video('v1', { progress: 40 }));
    expect(stale(client, ['videos'])).toBe(false);
  });

  test('video.state sets the state and its reason, then refetches the library and the plan usage', () => {
    const client = cache();
    applyRealtimeEvent(client, { type: 'video.state', videoId: 'v2', status: 'failed', error: 'uploader encode error' });
    expect(client.getQueryData<{ videos: unknown[] }>(['videos'])?.videos[1]).toEqual(
      video('v2', { status: 'failed', error: { key: 'uploader encode error' } }),
    );
    expect(stale(client, ['videos'])).toBe(true);
    expect(stale(client, ['subscription'])).toBe(true);
    expect(stale(client, ['streams'])).toBe(false);
  });

  test('upload.finished refetches the library and the usage', () => {
    const client = cache();
    applyRealtimeEvent(client, { type: 'upload.finished', videoId: 'v3' });
    expect(stale(client, ['videos'])).toBe(true);
    expect(stale(client, ['subscription'])).toBe(true);
  });

  test('stream.state patches the list and the stream, keeps the last error unless a new one comes, and refetches them, the incidents and the plan usage', () => {
    const client = cache();
    client.setQueryData(['streams', 's1'], stream('s1', { lastError: 'earlier' }));
    applyRealtimeEvent(client, { type: 'stream.state', streamId: 's1', status: 'started' });
    expect(client.getQueryData(['streams', 's1'])).toEqual(stream('s1', { status: 'started', lastError: 'earlier' }));
    applyRealtimeEvent(client, { type: 'stream.state', streamId: 's2', status: 'stopped', error: 'starting stream failed' });
    expect(client.getQueryData<{ streams: unknown[] }>(['streams'])?.streams).toEqual([
      stream('s1', { status: 'started' }),
      stream('s2', { status: 'stopped', lastError: 'starting stream failed' }),
    ]);
    expect(stale(client, ['streams'])).toBe(true);
    expect(stale(client, ['streams', 's1'])).toBe(true);
    expect(stale(client, ['incidents'])).toBe(true);
    // The plan's streams running now follow starts and stops (the dashboard's "Your plan").
    expect(stale(client, ['subscription'])).toBe(true);
  });

  test('stream.heartbeat patches the health and the verdict in place without refetching', () => {
    const client = cache();
    const health = { actual: 'started', fps: 30, at: '2026-01-01T00:00:00.000Z' };
    applyRealtimeEvent(client, { type: 'stream.heartbeat', streamId: 's1', verdict: 'degraded', health });
    expect(client.getQueryData(['streams', 's1'])).toEqual(stream('s1', { health, verdict: 'degraded' }));
    expect(client.getQueryData<{ streams: unknown[] }>(['streams'])?.streams[0]).toEqual(stream('s1', { health, verdict: 'degraded' }));
    expect(stale(client, ['streams'])).toBe(false);
  });

  test('a heartbeat that changes the verdict refetches the recent incidents; one that does not, does not', () => {
    const client = cache();
    const health = { actual: 'started', fps: 30, at: '2026-01-01T00:00:00.000Z' };
    client.setQueryData(['streams', 's1'], stream('s1', { verdict: 'healthy' }));
    applyRealtimeEvent(client, { type: 'stream.heartbeat', streamId: 's1', verdict: 'healthy', health });
    expect(stale(client, ['incidents'])).toBe(false);
    applyRealtimeEvent(client, { type: 'stream.heartbeat', streamId: 's1', verdict: 'offline', health });
    expect(stale(client, ['incidents'])).toBe(true);
  });

  test('subscription.changed refetches the subscription only', () => {
    const client = cache();
    applyRealtimeEvent(client, { type: 'subscription.changed' });
    expect(stale(client, ['subscription'])).toBe(true);
    expect(stale(client, ['videos'])).toBe(false);
  });

  test('after a (re)connection every live entry is fetched again', () => {
    const client = cache();
    refreshLiveQueries(client);
    for (const key of [['videos'], ['videos', 'v1'], ['streams'], ['streams', 's1'], ['subscription'], ['incidents']]) expect(stale(client, key)).toBe(true);
  });
});
