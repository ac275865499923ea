export type ToastKind = 'info' | 'success' | 'warning' | 'error';

export interface ToastRequest {
  message: string;
  kind: ToastKind;
}

type Listener = (toast: ToastRequest) => void;

const listeners = new Set<Listener>();
// Toasts raised before any provider has mounted (e.g. during app start) wait here instead of vanishing.
let pending: ToastRequest[] = [];

/** Shows a toast from anywhere, also outside React (API helpers, websocket handlers). */
export function showToast(message: string, kind: ToastKind = 'info'): void {
  const toast = { message, kind };
  if (listeners.size === 0) {
    pending.push(toast);
    return;
  }
  for (const listener of listeners) listener(toast);
}

/** Used by ToastProvider; returns the unsubscribe function. */
export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  const queued = pending;
  pending = [];
  for (const toast of queued) listener(toast);
  return () => {
    listeners.delete(listener);
  };
}
