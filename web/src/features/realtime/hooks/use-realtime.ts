import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { applyRealtimeEvent, refreshLiveQueries } from '../cache-updates';
import type { RealtimeStatus } from '../realtime-client';
import { ensureRealtimeConnection, onRealtimeEvent, onRealtimeOpen, onRealtimeStatusChange, realtimeStatus } from '../realtime-connection';

/** How often pages refetch live data while the realtime connection is not open. */
export const FALLBACK_POLL_MS = 5000;

export const useRealtimeStatus = (): RealtimeStatus => useSyncExternalStore(onRealtimeStatusChange, realtimeStatus, () => 'stopped');

/** For the signed-in layout: opens the connection (once per page) and lets its events update this data cache. */
export function useRealtimeUpdates(): RealtimeStatus {
  const queryClient = useQueryClient();
  useEffect(() => {
    const stopEvents = onRealtimeEvent((event) => applyRealtimeEvent(queryClient, event));
    const stopOpen = onRealtimeOpen(() => refreshLiveQueries(queryClient));
    ensureRealtimeConnection();
    return () => {
      stopEvents();
      stopOpen();
    };
  }, [queryClient]);
  return useRealtimeStatus();
}

/** A react-query `refetchInterval`: polling only while realtime is not open (spec: pages fall back to polling). */
export const useFallbackPolling = (intervalMs = FALLBACK_POLL_MS): number | false => (useRealtimeStatus() === 'open' ? false : intervalMs);
