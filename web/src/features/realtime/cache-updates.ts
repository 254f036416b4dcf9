// What each realtime event changes in the data cache. The cache holds the API's answers as they are, under keys
// every feature uses (docs/web.md, "Query keys"):
//   ['videos'] GET /videos ({ videos })        ['videos', id] GET /videos/{id}
//   ['streams'] GET /streams ({ streams })     ['streams', id] GET /streams/{id}
//   ['subscription'] GET /subscription         ['incidents'] GET /incidents
// Small changes (progress, heartbeats) are patched in place; changes that bring new fields (a finished transcode's
// thumbnail, a stream's verdict) are patched and then refetched.
import type { QueryClient } from '@tanstack/react-query';
import type { RealtimeEvent } from '@loopcast/contract/realtime-events';
import { queryKeys } from '../../api/queries';

/** The entries realtime keeps current (web/src/api/queries.ts). */
export const liveQueryKeys = queryKeys;

type Identified = { id: string };

/** Applies `change` to the item with `id`, both in the list answer (`{ [listField]: [...] }`) and in the item's own answer. */
function patchItem<T extends Identified>(client: QueryClient, key: readonly string[], listField: string, id: string, change: (item: T) => T): void {
  client.setQueriesData<unknown>({ queryKey: key }, (data: unknown) => {
    if (typeof data !== 'object' || data === null) return data;
    const list = (data as Record<string, unknown>)[listField];
    if (Array.isArray(list)) {
      return { ...data, [listField]: list.map((item: T) => (item.id === id ? change(item) : item)) };
    }
    return (data as Identified).id === id ? change(data as T) : data;
  });
}

export function applyRealtimeEvent(client: QueryClient, event: RealtimeEvent): void {
  switch (event.type) {
    case 'video.progress':
      patchItem<{ id: string; status: string; progress: number }>(client, liveQueryKeys.videos, 'videos', event.videoId, (video) => ({
        ...video,
        status: 'encoding',
        progress: Math.max(video.progress ?? 0, event.percent),
      }));
      return;
    case 'video.state':
      patchItem<{ id: string; status: string; error?: { key: string } }>(
        client,
        liveQueryKeys.videos,
        'videos',
        event.videoId,
        ({ error: _previous, ...video }) => ({
          ...video,
          status: event.status,
          ...(event.error ? { error: { key: event.error } } : {}),
        }),
      );
      void client.invalidateQueries({ queryKey: liveQueryKeys.videos });
      void client.invalidateQueries({ queryKey: liveQueryKeys.subscription });
      return;
    case 'upload.finished':
      void client.invalidateQueries({ queryKey: liveQueryKeys.videos });
      void client.invalidateQueries({ queryKey: liveQueryKeys.subscription });
      return;
    case 'stream.state':
      patchItem<{ id: string; status: string; lastError?: string }>(client, liveQueryKeys.streams, 'streams', event.streamId, (stream) => ({
        ...stream,
        status: event.status,
        ...(event.error ? { lastError: event.error } : {}),
      }));
      void client.invalidateQueries({ queryKey: liveQueryKeys.streams });
      void client.invalidateQueries({ queryKey: liveQueryKeys.incidents });
      // A start or a stop changes the plan's streams running now (the dashboard's plan card, the form's plan line).
      void client.invalidateQueries({ queryKey: liveQueryKeys.subscription });
      return;
    case 'stream.heartbeat': {
      // A change of health may be an incident beginning or ending (the stream's history records it).
      let verdictChanged = false;
      patchItem<{ id: string; health?: unknown; verdict?: string }>(client, liveQueryKeys.streams, 'streams', event.streamId, (stream) => {
        if (event.verdict && stream.verdict !== undefined && stream.verdict !== event.verdict) verdictChanged = true;
        return { ...stream, health: event.health, ...(event.verdict ? { verdict: event.verdict } : {}) };
      });
      if (verdictChanged) void client.invalidateQueries({ queryKey: liveQueryKeys.incidents });
      return;
    }
    case 'subscription.changed':
      void client.invalidateQueries({ queryKey: liveQueryKeys.subscription });
      return;
  }
}

/** After a (re)connection: whatever was pushed while no connection was open is fetched instead. */
export function refreshLiveQueries(client: QueryClient): void {
  for (const queryKey of Object.values(liveQueryKeys)) void client.invalidateQueries({ queryKey });
}
