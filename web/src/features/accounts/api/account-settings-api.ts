// The account page's API (docs/api.md, "Account"): the account with a new address waiting for its link, name and
// language, a new address, a new password, the signed-in devices, the data export and closing the account. The two
// e-mailed links are followed from pages that may be open signed out, so their 401 is an answer, not a sign-out.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountView, DeviceView } from '@loopcast/contract/api/account';
import { api } from '../../../api/client';
import type { LanguageCode } from '../../../i18n/languages';
import { callWithRetryHint, currentUserQueryKey, type PublicUser } from './accounts-api';

export type { AccountView, DeviceView };

export const accountQueryKey = ['account'] as const;
export const devicesQueryKey = ['account', 'sessions'] as const;

export const useAccount = () => useQuery({ queryKey: accountQueryKey, queryFn: ({ signal }) => api.get<AccountView>('/account', undefined, signal) });

export const useDevices = () =>
  useQuery({
    queryKey: devicesQueryKey,
    queryFn: ({ signal }) => api.get<{ sessions: DeviceView[] }>('/account/sessions', undefined, signal),
    select: (answer) => answer.sessions,
  });

/** After a change of the user: the account entry and the signed-in user (`['me']`, the sidebar's name) alike. */
function useUserChanged() {
  const queryClient = useQueryClient();
  return (user: PublicUser) => {
    queryClient.setQueryData<{ user: PublicUser }>(currentUserQueryKey, { user });
    queryClient.setQueryData<AccountView>(accountQueryKey, (account) => account && { ...account, user });
  };
}

export function useUpdateProfile() {
  const userChanged = useUserChanged();
  return useMutation({
    mutationFn: (changes: { displayName?: string; language?: LanguageCode }) => callWithRetryHint<{ user: PublicUser }>('PATCH', '/account', changes),
    onSuccess: ({ user }) => userChanged(user),
  });
}

export function useRequestEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; password: string }) =>
      callWithRetryHint<{ pendingEmail: { email: string; expiresAt: string } }>('POST', '/account/email', input),
    onSuccess: ({ pendingEmail }) => queryClient.setQueryData<AccountView>(accountQueryKey, (account) => account && { ...account, pendingEmail }),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) => callWithRetryHint<{ sessionsEnded: number }>('POST', '/account/password', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesQueryKey }),
  });
}

export function useSignOutDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/account/sessions/${encodeURIComponent(id)}`),
    onSuccess: (_, id) =>
      queryClient.setQueryData<{ sessions: DeviceView[] }>(devicesQueryKey, (answer) => answer && { sessions: answer.sessions.filter((s) => s.id !== id) }),
  });
}

export function useSignOutOthers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ sessionsEnded: number }>('/account/sessions/sign-out-others'),
    onSuccess: () =>
      queryClient.setQueryData<{ sessions: DeviceView[] }>(devicesQueryKey, (answer) => answer && { sessions: answer.sessions.filter((s) => s.current) }),
  });
}

/** GET /account/export, saved as the file the API names (a JSON document). */
export function useDownloadAccountData() {
  return useMutation({
    mutationFn: async () => {
      const document = await callWithRetryHint<{ exportedAt: string }>('GET', '/account/export');
      const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
      const link = Object.assign(window.document.createElement('a'), { href: url, download: `loopcast-account-${document.exportedAt.slice(0, 10)}.json` });
      window.document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
}

export const useRequestClosure = () =>
  useMutation({
    mutationFn: (password: string) => callWithRetryHint<{ pendingClosure: { email: string; expiresAt: string } }>('POST', '/account/close', { password }),
  });

/** The e-mailed links: answered pages, never a sign-out. */
export const confirmEmailChange = (token: string) => callWithRetryHint<{ user: PublicUser }>('POST', '/account/email/confirm', { token }, () => undefined);
export const confirmClosure = (token: string) => callWithRetryHint<{ closed: true }>('POST', '/account/close/confirm', { token }, () => undefined);
