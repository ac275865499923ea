import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import './wait-overlay.css';

/** Spec section 9: the wait overlay shows its message after 2 s (short waits stay quiet). */
export const WAIT_MESSAGE_DELAY_MS = 2000;

export interface WaitOverlayProps {
  active: boolean;
  /** Shown after 2 s; defaults to 'Please wait…'. */
  message?: string;
}

/**
 * With nothing to return to (the start-up wait), the browser would go on from where the removed
 * overlay was, the end of the page, and the first Tab would leave the page. Focusing the body for a
 * moment starts the Tab order at the top again: the skip link comes first.
 */
function restartTabOrder(): void {
  const { body } = document;
  const hadTabIndex = body.hasAttribute('tabindex');
  if (!hadTabIndex) body.setAttribute('tabindex', '-1');
  body.focus({ preventScroll: true });
  if (!hadTabIndex) body.removeAttribute('tabindex');
}

/** Blocks pointer and keyboard input on the whole page while `active`. */
export function WaitOverlay({ active, message }: WaitOverlayProps) {
  const { t } = useTranslation('components');
  const [messageShown, setMessageShown] = useState(false);
  const overlayRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setMessageShown(false);
    if (!active) return;
    const timer = setTimeout(() => setMessageShown(true), WAIT_MESSAGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [active]);

  useEffect(() => {
    if (!active) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    overlayRef.current?.focus();
    // Capture phase on window runs before any handler on the page, so shortcuts cannot start more work.
    const block = (event: KeyboardEvent) => {
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('keydown', block, true);
    return () => {
      window.removeEventListener('keydown', block, true);
      if (previous?.isConnected && previous !== document.body) previous.focus();
      else restartTabOrder();
    };
  }, [active]);

  if (!active) return null;
  return createPortal(
    <div
      ref={overlayRef}
      className={`wait-overlay${messageShown ? ' wait-overlay-shown' : ''}`}
      tabIndex={-1}
      aria-busy="true"
      data-react-aria-top-layer="true"
    >
      <div className="wait-status" role="status" aria-live="polite">
        {messageShown ? (
          <>
            <span className="wait-spinner" aria-hidden="true" />
            <span className="wait-message">{message ?? t('pleaseWait')}</span>
          </>
        ) : null}
      </div>
    </div>,
    document.body,
  );
}
