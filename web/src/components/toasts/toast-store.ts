// Notification toasts (spec section 9): shown 5000 ms, at most 20 at once (the oldest go first), closed on click,
// paused while hovered (components/toasts/toaster.tsx). Any module may call `showToast`; the root renders them.

export const TOAST_DURATION_MS = 5000;
export const MAX_TOASTS = 20;

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'success' | 'error';
  /** Milliseconds shown; Infinity keeps it until clicked. */
  durationMs: number;
  action?: ToastAction;
}

type Listener = (toasts: readonly Toast[]) => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function publish(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener(toasts);
}

export function showToast(toast: Omit<Toast, 'id' | 'tone' | 'durationMs'> & Partial<Pick<Toast, 'tone' | 'durationMs'>>): number {
  const id = nextId++;
  const shown: Toast = { tone: 'info', durationMs: TOAST_DURATION_MS, ...toast, id };
  publish([...toasts, shown].slice(-MAX_TOASTS));
  return id;
}

export function dismissToast(id: number): void {
  publish(toasts.filter((toast) => toast.id !== id));
}

export function subscribeToToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const currentToasts = (): readonly Toast[] => toasts;
