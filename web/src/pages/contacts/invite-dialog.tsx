import type { Contact } from '@scriptorium/common/api/contacts';
import { splitUserStrings } from '@scriptorium/common/rules/contacts';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DialogSize, FormDialog } from '../../components/dialog/dialog';
import { showToast } from '../../components/toast/toast';
import { type InviteFailure, type InviteOutcome, inviteAll, inviteContact } from './contacts-api';

/** Spec 9: the add-contact dialog is 350 by 250. */
export const INVITE_DIALOG_SIZE: DialogSize = { width: 350, height: 250 };

export interface InviteDialogProps {
  onClose(): void;
  /** The contacts (sent invites, or contacts when the other side had invited us) just added. */
  onAdded(contacts: Contact[]): void;
  /** For tests; the real call by default. */
  invite?: (entry: string) => Promise<InviteOutcome>;
}

/**
 * Invite contact (spec 2.4, 5 and 8): the box takes usernames and e-mail addresses separated by
 * whitespace, commas or semicolons; each is added one at a time. Errors 1, 2 and 3 show as warnings
 * under the entry; the dialog stays open unless contacts were added.
 */
export function InviteDialog({ onClose, onAdded, invite = inviteContact }: InviteDialogProps) {
  const { t } = useTranslation('contacts');
  const id = useId();
  const [value, setValue] = useState('');
  const [failures, setFailures] = useState<InviteFailure[]>([]);
  const [hint, setHint] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const message = (failure: InviteFailure) => t(`inviteErrors.${failure.code ?? 'other'}`);

  const submit = async () => {
    const entries = splitUserStrings(value);
    setHint(entries.length === 0);
    if (entries.length === 0) return;
    setBusy(true);
    const { added, failed } = await inviteAll(entries, invite);
    setBusy(false);
    if (added.length > 0) {
      onAdded(added);
      showToast(t('added', { count: added.length }), 'success');
      // The dialog closes; the entries that failed must still reach the user.
      for (const failure of failed) showToast(`${failure.entry}: ${message(failure)}`, 'warning');
      onClose();
      return;
    }
    setFailures(failed);
    // Back to the box to correct the entries (focus must stay inside the dialog for Escape).
    input.current?.focus();
  };

  const inputId = `${id}-input`;
  const warningsId = `${id}-warnings`;
  return (
    <FormDialog
      title={t('inviteDialog.title')}
      onClose={onClose}
      {...INVITE_DIALOG_SIZE}
      submitLabel={t('inviteDialog.submit')}
      onSubmit={submit}
      busy={busy}
      formClassName="form invite-contact-form"
    >
      <div className="form-field">
        <label htmlFor={inputId} className="visually-hidden">
          {t('inviteDialog.label')}
        </label>
        <input
          ref={input}
          id={inputId}
          type="text"
          // biome-ignore lint/a11y/noAutofocus: a modal dialog's field (Biome exempts <dialog>, not FormDialog); the dialog would focus its close button first, typing is what the user came for.
          autoFocus
          autoComplete="off"
          spellCheck={false}
          placeholder={t('inviteDialog.placeholder')}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setHint(false);
          }}
          aria-invalid={failures.length > 0 || hint}
          aria-describedby={failures.length > 0 || hint ? warningsId : undefined}
        />
      </div>
      <div id={warningsId} aria-live="polite">
        {hint ? <p className="invite-contact-warning">{t('inviteDialog.required')}</p> : null}
        {failures.length > 0 ? (
          <ul className="invite-contact-warnings">
            {failures.map((failure) => (
              <li key={failure.entry}>
                <span className="invite-contact-entry">{failure.entry}</span>
                <span className="invite-contact-warning" role="alert">
                  {message(failure)}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </FormDialog>
  );
}
