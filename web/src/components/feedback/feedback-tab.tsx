import { feedbackApi } from '@scriptorium/common/api/endpoints/base';
import { X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { showToast } from '../toast/toast';
import './feedback-tab.css';
import { IconButton } from '../button/icon-button';

/** The technical-support tab at the side of every page, with its message panel. */
export function FeedbackTab() {
  const { t } = useTranslation('components');
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const tabRef = useRef<HTMLButtonElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const panelId = useId();
  const titleId = useId();
  const textId = useId();

  const close = () => {
    setOpen(false);
    setFailed(false);
    tabRef.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    // Spec section 5: an empty message is not sent.
    if (message.trim() === '') {
      textRef.current?.focus();
      return;
    }
    setSending(true);
    setFailed(false);
    try {
      await call(feedbackApi.send, { message });
    } catch {
      // The text stays in the box so that nothing the user wrote is lost.
      setFailed(true);
      setSending(false);
      return;
    }
    setSending(false);
    setMessage('');
    showToast(t('feedbackThanks'), 'success');
    close();
  };

  const onPanelKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  };

  return (
    <div className="feedback">
      <button
        ref={tabRef}
        type="button"
        className="feedback-tab"
        aria-label={t('feedbackTitle')}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {t('feedbackTab')}
      </button>
      {open ? (
        <section
          id={panelId}
          className="feedback-panel"
          role="dialog"
          aria-labelledby={titleId}
          onKeyDown={onPanelKeyDown}
        >
          {/* Not <header>: outside a sectioning element it would be a second banner landmark. */}
          <div className="feedback-header">
            <h2 id={titleId} className="feedback-title">
              {t('feedbackTitle')}
            </h2>
            <IconButton label={t('close')} icon={X} onPress={close} className="feedback-close" />
          </div>
          <p className="feedback-intro">{t('feedbackIntro')}</p>
          <form onSubmit={(event) => void submit(event)}>
            <label htmlFor={textId}>{t('feedbackMessageLabel')}</label>
            <textarea
              ref={textRef}
              id={textId}
              className="feedback-message"
              rows={6}
              value={message}
              // biome-ignore lint/a11y/noAutofocus: the panel was opened to type into this box
              autoFocus
              onChange={(event) => setMessage(event.target.value)}
            />
            {failed ? (
              <p className="feedback-error" role="alert">
                {t('feedbackError')}
              </p>
            ) : null}
            <button type="submit" className="button button-primary" disabled={sending}>
              {sending ? t('feedbackSending') : t('feedbackSend')}
            </button>
          </form>
        </section>
      ) : null}
    </div>
  );
}
