// The week's incidents across the user's streams (GET /incidents, docs/api.md): interruptions, restarts, streams
// that needed attention and recovered. The realtime client refetches the entry when a stream changes state or
// health (features/realtime/cache-updates.ts, key ['incidents']).
import { useQuery } from '@tanstack/react-query';
import type { Incident } from '@loopcast/contract/api/history';
import { api } from '../../../api/client';
import { queryKeys } from '../../../api/queries';

export type { Incident };

export const incidentsQueryKey = queryKeys.incidents;

export const useRecentIncidents = (refetchInterval: number | false) =>
  useQuery({
    queryKey: incidentsQueryKey,
    queryFn: ({ signal }) => api.get<{ incidents: Incident[] }>('/incidents', undefined, signal),
    select: (answer) => answer.incidents,
    refetchInterval,
  });
