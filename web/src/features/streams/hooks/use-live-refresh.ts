import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { streamKey, streamsKey, type Stream, type StreamsAnswer } from '../api/streams-api';
import { refreshDue } from '../live-updates';

const CHECK_EVERY_MS = 1_000;

/**
 * Fetches the list again when a running stream has had no news for too long (live-updates.ts): realtime is not
 * connected or missed something. News is any write to the list or to the stream's own cache entry. With `streamId`
 * (a stream's own page) only that stream is watched, and its own entry fetched.
 */
export function useLiveRefresh(streamId?: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const timer = setInterval(() => {
      if (streamId !== undefined) {
        const own = queryClient.getQueryState<Stream>(streamKey(streamId));
        if (!own?.data || own.fetchStatus !== 'idle') return;
        if (refreshDue([{ status: own.data.status, lastNewsAt: own.dataUpdatedAt }], Date.now())) {
          void queryClient.refetchQueries({ queryKey: streamKey(streamId), exact: true }, { cancelRefetch: false });
        }
        return;
      }
      const list = queryClient.getQueryState<StreamsAnswer>(streamsKey);
      if (!list?.data || list.fetchStatus !== 'idle') return;
      const listedAt = list.dataUpdatedAt;
      const streams = list.data.streams.map((listed) => {
        const own = queryClient.getQueryState<Stream>(streamKey(listed.id));
        const current = own?.data !== undefined && own.dataUpdatedAt >= listedAt ? own.data : listed;
        return { status: current.status, lastNewsAt: Math.max(listedAt, own?.dataUpdatedAt ?? 0) };
      });
      if (refreshDue(streams, Date.now())) void queryClient.refetchQueries({ queryKey: streamsKey, exact: true }, { cancelRefetch: false });
    }, CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, [queryClient, streamId]);
}
