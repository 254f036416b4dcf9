// The API's resources that several features read, as TanStack Query options: one key and one request each, caching
// the API's answer as it is (each hook narrows it with `select`). Every feature that reads one of them, and
// realtime's cache updates (features/realtime/cache-updates.ts), use these, so they share one cache entry.
import { queryOptions } from '@tanstack/react-query';
import type { SubscriptionOverview } from '@loopcast/contract/api/billing';
import type { ChannelView } from '@loopcast/contract/api/channels';
import type { VideoView } from '@loopcast/contract/api/videos';
import type { StreamView } from '@loopcast/contract/api/streams';
import { api } from './client';

export const queryKeys = {
  videos: ['videos'],
  channels: ['channels'],
  streams: ['streams'],
  subscription: ['subscription'],
  incidents: ['incidents'],
} as const;

/** A library item with its signed thumbnail address (valid for an hour). */
export type VideoItem = VideoView & { thumbnailUrl?: string };

export interface ChannelsAnswer {
  channels: ChannelView[];
  /** false: no Google client on this server; YouTube accounts cannot be connected (stream keys still work). */
  youtubeAvailable: boolean;
}

/** GET /videos. */
export const videosQuery = queryOptions({
  queryKey: queryKeys.videos,
  queryFn: ({ signal }) => api.get<{ videos: VideoItem[] }>('/videos', undefined, signal),
});

/** GET /channels. */
export const channelsQuery = queryOptions({
  queryKey: queryKeys.channels,
  queryFn: ({ signal }) => api.get<ChannelsAnswer>('/channels', undefined, signal),
});

/** GET /streams (the streams feature also puts each stream into its own entry, ['streams', id]). */
export const streamsQuery = queryOptions({
  queryKey: queryKeys.streams,
  queryFn: ({ signal }) => api.get<{ streams: StreamView[] }>('/streams', undefined, signal),
});

/** GET /subscription: the plan, its limits and the usage against them. */
export const subscriptionQuery = queryOptions({
  queryKey: queryKeys.subscription,
  queryFn: ({ signal }) => api.get<SubscriptionOverview>('/subscription', undefined, signal),
});
