import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { streamKey, type Stream } from '../api/streams-api';
import { heartbeatVerdict } from '../stream-display';

/** Realtime patches heartbeats into the cache, not verdicts: when a new heartbeat disagrees with the API's verdict,
 * the stream is fetched again so its badge follows (a destination failing, the loop recovering). */
export function useVerdictCheck(stream: Stream): void {
  const queryClient = useQueryClient();
  const judged = heartbeatVerdict(stream);
  const disagrees = judged !== undefined && judged !== stream.verdict;
  const heartbeatAt = stream.health?.at;
  useEffect(() => {
    if (disagrees) void queryClient.invalidateQueries({ queryKey: streamKey(stream.id), exact: true });
  }, [queryClient, stream.id, heartbeatAt, disagrees]);
}
