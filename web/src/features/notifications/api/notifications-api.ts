// How the creator is told about their streams (docs/api.md, "Notifications"): e-mail alerts on or off, and a Telegram
// chat linked through the operator's bot with a one-time deep link. ['notifications'] holds GET /notifications as
// it is; every change answers with (or leads to) the new settings.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationsView } from '@loopcast/contract/api/notifications';
import { api } from '../../../api/client';

export type Notifications = NotificationsView;

/** A deep link to the bot (https://t.me/<bot>?start=<token>), single use, until `expiresAt`. */
export interface TelegramLink {
  link: string;
  expiresAt: string;
}

export const notificationsKey = ['notifications'] as const;

/** GET /notifications; `refetchInterval` while a Telegram link waits to be used. */
export const useNotifications = (refetchInterval: number | false = false) =>
  useQuery({
    queryKey: notificationsKey,
    queryFn: ({ signal }) => api.get<Notifications>('/notifications', undefined, signal),
    refetchInterval,
  });

export function useEmailAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: boolean) => api.patch<Notifications>('/notifications', { email }),
    onSuccess: (settings) => queryClient.setQueryData(notificationsKey, settings),
  });
}

export const useStartTelegramLink = () => useMutation({ mutationFn: () => api.post<TelegramLink>('/notifications/telegram') });

export function useUnlinkTelegram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<void>('/notifications/telegram'),
    onSuccess: () =>
      queryClient.setQueryData<Notifications>(
        notificationsKey,
        (settings) => settings && { ...settings, telegram: { available: settings.telegram.available, linked: false } },
      ),
  });
}
