import { useEffect, useRef, useSyncExternalStore } from 'react';
import { currentToasts, dismissToast, subscribeToToasts, type Toast } from './toast-store';

const noToasts: readonly Toast[] = [];

/** One toast: closes on click, after its duration, and pauses its countdown while hovered or focused. */
function ToastItem({ toast, dismissLabel }: { toast: Toast; dismissLabel: string }) {
  const remaining = useRef(toast.durationMs);
  const startedAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const resume = () => {
    if (!Number.isFinite(remaining.current)) return;
    startedAt.current = Date.now();
    timer.current = setTimeout(() => dismissToast(toast.id), remaining.current);
  };
  const pause = () => {
    clearTimeout(timer.current);
    remaining.current -= Date.now() - startedAt.current;
  };

  useEffect(() => {
    resume();
    return () => clearTimeout(timer.current);
    // The countdown starts once per toast; pause/resume keep it going afterwards.
  }, []);

  return (
    <li className={`toast toast--${toast.tone}`} onMouseEnter={pause} onMouseLeave={resume} onClick={() => dismissToast(toast.id)}>
      <span className="toast__message">{toast.message}</span>
      {toast.action && (
        <button
          type="button"
          className="toast__action"
          onClick={(event) => {
            event.stopPropagation();
            toast.action?.onClick();
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className="toast__close" aria-label={dismissLabel} onFocus={pause} onBlur={resume}>
        ×
      </button>
    </li>
  );
}

/** The top-right stack of toasts; a polite live region so screen readers announce them. */
export function Toaster({ dismissLabel }: { dismissLabel: string }) {
  const toasts = useSyncExternalStore(subscribeToToasts, currentToasts, () => noToasts);
  return (
    <ol className="toaster" aria-live="polite" aria-relevant="additions">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} dismissLabel={dismissLabel} />
      ))}
    </ol>
  );
}
