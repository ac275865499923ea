import { X } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { showToast, subscribeToasts, type ToastKind } from './toast-emitter';
import './toast.css';

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

type IconButtonModule = typeof import('../button/icon-button');
let iconButtons: IconButtonModule | null = null;
let iconButtonsLoading: Promise<void> | null = null;

/**
 * The close buttons' module (react-aria's Button and Tooltip, about 12 KB gzip) loads with the
 * first toast, not with every page: the login page shows none before its form can be used.
 */
function loadIconButtons(): void {
  iconButtonsLoading ??= import('../button/icon-button').then((module) => {
    iconButtons = module;
  });
}

/**
 * A toast's close button: the app's IconButton once its module is there, before that (the first
 * toast of a page) the same button without its tooltip. Chosen once per toast, so that a focused
 * button is never swapped under the keyboard.
 */
function CloseButton({ label, onClose }: { label: string; onClose(): void }) {
  const [module] = useState(iconButtons);
  if (module)
    return (
      <module.IconButton
        label={label}
        icon={X}
        onPress={onClose}
        className="toast-close"
        tooltipOnFocusOnly
      />
    );
  return (
    <button type="button" className="icon-button toast-close" aria-label={label} onClick={onClose}>
      <X aria-hidden="true" />
    </button>
  );
}

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
      loadIconButtons();
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
      <CloseButton label={t('close')} onClose={() => dismiss(toast.id)} />
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
