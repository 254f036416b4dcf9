// A stream's history (docs/api.md, "Streams": GET /streams/{id}/history): uptime over 24 hours, 7 and 30 days and
// the last 30 days' timeline, newest first. Kept under the stream's key, ['streams', id, 'history'], so realtime's
// stream.state (which refreshes every ['streams'] entry) refreshes it too.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../../api/client';
import type { HistoryView } from '../stream-history';
import { streamKey, type Stream } from './streams-api';

export const streamHistoryKey = (streamId: string) => [...streamKey(streamId), 'history'] as const;

/**
 * The history of a stream whose page is open. Every change of the stream as the page sees it (its state, verdict,
 * needing attention) means new events, so it is asked again then, whether the change came by realtime or by polling;
 * `refetchInterval` polls while realtime is down.
 */
export function useStreamHistory(stream: Pick<Stream, 'id' | 'status' | 'verdict' | 'needsAttention'> | undefined, refetchInterval: number | false) {
  const queryClient = useQueryClient();
  const streamId = stream?.id ?? '';
  const history = useQuery({
    queryKey: streamHistoryKey(streamId),
    queryFn: ({ signal }) => api.get<HistoryView>(`/streams/${encodeURIComponent(streamId)}/history`, undefined, signal),
    enabled: stream !== undefined,
    refetchInterval,
  });
  const change = stream && `${stream.status}:${stream.verdict}:${stream.needsAttention}`;
  const seen = useRef(change);
  useEffect(() => {
    if (change === seen.current) return;
    seen.current = change;
    if (change) void queryClient.invalidateQueries({ queryKey: streamHistoryKey(streamId), exact: true });
  }, [queryClient, streamId, change]);
  return history;
}
