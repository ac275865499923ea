import { X } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { showToast, subscribeToasts, type ToastKind } from './toast-emitter';
import './toast.css';
import { IconButton } from '../button/icon-button';

export { showToast, type ToastKind } from './toast-emitter';

/** Spec section 9: a toast appears after about 1 ms, stays 4 s, then fades out over 2 s. */
export const TOAST_APPEAR_MS = 1;
export const TOAST_VISIBLE_MS = 4000;
export const TOAST_FADE_MS = 2000;

interface ToastItem {
  id: number;
  message: string;
  kind: ToastKind;
  fading: boolean;
}

export interface ToastApi {
  show(message: string, kind?: ToastKind): void;
}

const toastApi: ToastApi = { show: showToast };

/** Toasts are app-wide, so the hook hands out the module-level emitter; it works in any component. */
export function useToast(): ToastApi {
  return toastApi;
}

let nextId = 1;

export function ToastProvider({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('components');
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const activeTimers = timers.current;
    const later = (ms: number, action: () => void) => {
      const timer = setTimeout(() => {
        activeTimers.delete(timer);
        action();
      }, ms);
      activeTimers.add(timer);
    };
    const unsubscribe = subscribeToasts(({ message, kind }) => {
      const id = nextId++;
      later(TOAST_APPEAR_MS, () => {
        setToasts((list) => [...list, { id, message, kind, fading: false }]);
        later(TOAST_VISIBLE_MS, () => {
          setToasts((list) => list.map((toast) => (toast.id === id ? { ...toast, fading: true } : toast)));
          later(TOAST_FADE_MS, () => setToasts((list) => list.filter((toast) => toast.id !== id)));
        });
      });
    });
    return () => {
      unsubscribe();
      for (const timer of activeTimers) clearTimeout(timer);
      activeTimers.clear();
    };
  }, []);

  const dismiss = (id: number) => setToasts((list) => list.filter((toast) => toast.id !== id));
  const renderToast = (toast: ToastItem) => (
    <div
      key={toast.id}
      className={`toast toast-${toast.kind}${toast.fading ? ' toast-fading' : ''}`}
      data-kind={toast.kind}
    >
      <span className="toast-message">{toast.message}</span>
      <IconButton
        label={t('close')}
        icon={X}
        onPress={() => dismiss(toast.id)}
        className="toast-close"
        tooltipOnFocusOnly
      />
    </div>
  );

  return (
    <>
      {children}
      {createPortal(
        // Both live regions exist before any toast is inserted, or screen readers would not announce it.
        // The top-layer marker keeps them announced while a modal dialog hides the rest of the page.
        <div className="toast-container" data-react-aria-top-layer="true">
          <div role="status" aria-live="polite" aria-label={t('notifications')} className="toast-region">
            {toasts.filter((toast) => toast.kind !== 'error').map(renderToast)}
          </div>
          <div role="alert" aria-live="assertive" aria-label={t('notifications')} className="toast-region">
            {toasts.filter((toast) => toast.kind === 'error').map(renderToast)}
          </div>
        </div>,
        document.body,
      )}
    </>
  );
}
