import { useEffect, useState } from 'react';
import { useNotifications, useStartTelegramLink, type TelegramLink } from '../api/notifications-api';
import { linkingState } from '../telegram-link';

/** How often the page asks whether the link was used, while it waits. */
export const LINK_POLL_MS = 3_000;

/**
 * The creator's notification settings, and linking a Telegram chat: a fresh deep link is asked for and opened in
 * Telegram (a new tab, or the app on a phone); while it waits to be used the page polls GET /notifications (and
 * refetches when the tab is focused again, which react-query does by itself), until the chat is linked or the link
 * expires.
 */
export function useNotificationSettings(onLinked: () => void) {
  const start = useStartTelegramLink();
  const [link, setLink] = useState<TelegramLink>();
  const [now, setNow] = useState(Date.now);
  // Polls while a link is out and unexpired; once it is used the link is put away (below), which ends the polling.
  const settings = useNotifications(link && now < Date.parse(link.expiresAt) ? LINK_POLL_MS : false);
  const state = linkingState(link, settings.data?.telegram.linked ?? false, now);

  useEffect(() => {
    if (state !== 'waiting') return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [state]);

  useEffect(() => {
    if (state !== 'linked') return;
    setLink(undefined);
    onLinked();
  }, [state, onLinked]);

  const open = () => {
    start.mutate(undefined, {
      onSuccess: (answer) => {
        setNow(Date.now());
        setLink(answer);
        // Still within the click's user activation, so no pop-up blocker stops it; the page also shows the link.
        window.open(answer.link, '_blank', 'noopener,noreferrer');
      },
    });
  };

  return { settings, linking: { state, link, now, open, starting: start.isPending, error: start.error } } as const;
}
