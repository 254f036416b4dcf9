import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { currentUserQueryKey, type PublicUser } from '../api/accounts-api';
import { startSession } from '../session-cookie';

/** Keeps a new session (cookie, the user in the cache when known, nothing of a previous user) and opens `path`. */
export function useSessionStart(): (session: { token: string; user?: PublicUser }, path: string) => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (session, path) => {
      startSession(session.token);
      queryClient.clear();
      if (session.user) queryClient.setQueryData(currentUserQueryKey, { user: session.user });
      void navigate(path, { replace: true });
    },
    [queryClient, navigate],
  );
}
