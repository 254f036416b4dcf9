import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** `#stream-<id>` (the dashboard's "Open"): once the list is on screen, that stream's card is scrolled to and focused. */
export function useStreamAnchor(listed: boolean): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!listed || !hash.startsWith('#stream-')) return;
    const card = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!card) return;
    card.scrollIntoView({ block: 'start' });
    card.focus({ preventScroll: true });
  }, [listed, hash]);
}
