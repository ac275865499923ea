import { isAvatarFileName } from '@scriptorium/common/api/user';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog/dialog';
import { showToast } from '../../components/toast/toast';
import { accountApi, errorMessageOf, fieldMessagesOf, statusOf } from '../account/account-api';
import { FieldErrors, FormErrorList } from '../account/field-errors';

/** Spec 9 dialog sizes. */
export const ADD_EMAIL_DIALOG_WIDTH = 400;
export const DELETE_ACCOUNT_DIALOG_HEIGHT = 250;

interface DialogBase {
  onClose(): void;
}

/** Upload picture: png, jpg, jpeg; nothing happens without a file. */
export function UploadAvatarDialog({ onClose, onUploaded }: DialogBase & { onUploaded(): Promise<void> }) {
  const { t } = useTranslation('accounts');
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);

  async function upload(event?: FormEvent) {
    event?.preventDefault();
    if (!file || busy) return;
    if (!isAvatarFileName(file.name)) return setError([t('profile.wrongType')]);
    setBusy(true);
    setProgress(0);
    try {
      await accountApi.uploadAvatar(file, setProgress);
      await onUploaded();
      onClose();
    } catch (failure) {
      const fields = fieldMessagesOf(failure);
      if (fields?.avatar) setError(fields.avatar);
      else showToast(t('profile.avatarError'), 'error');
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={t('profile.uploadTitle')}
      onClose={onClose}
      buttons={
        <>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => void upload()}
          >
            {t('profile.upload')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <form className="form" noValidate onSubmit={(event) => void upload(event)}>
        <div className="form-field">
          <label htmlFor={`${id}-file`}>{t('profile.chooseFile')}</label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".png,.jpg,.jpeg,image/png,image/jpeg"
            onChange={(event) => {
              setError([]);
              setFile(event.target.files?.[0] ?? null);
            }}
            aria-describedby={error.length ? `${id}-file-errors` : undefined}
          />
          <FieldErrors id={`${id}-file-errors`} errors={error} />
        </div>
        {busy && <progress aria-label={t('profile.uploadProgress')} max={1} value={progress} />}
      </form>
    </Dialog>
  );
}

/** Profile change-password dialog (spec 5, 8). */
export function ChangePasswordDialog({ onClose }: DialogBase) {
  const { t } = useTranslation('accounts');
  const id = useId();
  const [values, setValues] = useState({ old_password: '', new_password1: '', new_password2: '' });
  const [general, setGeneral] = useState<string[]>([]);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    setFields({});
    if (!values.old_password || !values.new_password1 || !values.new_password2) {
      return setGeneral([t('profile.allRequired')]);
    }
    if (values.new_password1 !== values.new_password2) return setGeneral([t('profile.confirmNew')]);
    setGeneral([]);
    setBusy(true);
    try {
      await accountApi.changePassword(values.old_password, values.new_password1, values.new_password2);
      showToast(t('profile.passwordChanged'), 'success');
      onClose();
    } catch (failure) {
      const messages = fieldMessagesOf(failure);
      if (messages && Object.values(messages).some((list) => list.length > 0)) setFields(messages);
      else if (statusOf(failure) !== null) setGeneral([t('profile.passwordNotChanged')]);
      else setGeneral([t('profile.passwordNetworkError')]);
      setBusy(false);
    }
  }

  const field = (name: keyof typeof values, label: string, autoComplete: string) => (
    <div className="form-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        name={name}
        type="password"
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        aria-invalid={(fields[name]?.length ?? 0) > 0}
        aria-describedby={fields[name]?.length ? `${id}-${name}-errors` : undefined}
      />
      <FieldErrors id={`${id}-${name}-errors`} errors={fields[name]} />
    </div>
  );

  return (
    <Dialog
      title={t('profile.changePasswordTitle')}
      onClose={onClose}
      buttons={
        <>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => void submit()}
          >
            {t('profile.change')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormErrorList errors={general} />
        {field('old_password', t('profile.oldPassword'), 'current-password')}
        {field('new_password1', t('profile.newPassword1'), 'new-password')}
        {field('new_password2', t('profile.newPassword2'), 'new-password')}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

/** Add e-mail (width 400): trimmed, required, then a confirmation mail. */
export function AddEmailDialog({ onClose, onAdded }: DialogBase & { onAdded(): Promise<void> }) {
  const { t } = useTranslation('accounts');
  const id = useId();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const address = email.trim();
    if (address === '') return setErrors([t('profile.emailRequired')]);
    setErrors([]);
    setBusy(true);
    try {
      await accountApi.addEmail(address);
      showToast(t('profile.confirmationSent', { email: address }), 'success');
      await onAdded();
      onClose();
    } catch (failure) {
      const messages = fieldMessagesOf(failure);
      if (messages?.email?.length) setErrors(messages.email);
      else showToast(t('profile.emailAddError'), 'error');
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={t('profile.addEmailTitle')}
      onClose={onClose}
      width={ADD_EMAIL_DIALOG_WIDTH}
      buttons={
        <>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => void submit()}
          >
            {t('profile.add')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <div className="form-field">
          <label htmlFor={`${id}-email`}>{t('profile.newEmail')}</label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={errors.length > 0}
            aria-describedby={errors.length ? `${id}-email-errors` : undefined}
          />
          <FieldErrors id={`${id}-email-errors`} errors={errors} />
        </div>
      </form>
    </Dialog>
  );
}

/** Account deletion (height 250): nothing happens unless the username matches and a password is given. */
export function DeleteAccountDialog({
  username,
  onClose,
  onDeleted,
}: DialogBase & { username: string; onDeleted(): Promise<void> }) {
  const { t } = useTranslation('accounts');
  const id = useId();
  const [typedUsername, setTypedUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    // Spec 5: the typed username must equal the current one and the password be non-empty.
    if (busy || typedUsername !== username || password === '') return;
    setBusy(true);
    try {
      await accountApi.deleteAccount(password);
      await onDeleted();
    } catch (failure) {
      const status = statusOf(failure);
      if (status === 401) showToast(t('profile.deleteWrongPassword'), 'error');
      else if (status === 403) showToast(errorMessageOf(failure) ?? t('profile.deleteStaff'), 'error');
      else showToast(t('profile.deleteFailed'), 'error');
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={t('profile.deleteAccountTitle')}
      onClose={onClose}
      height={DELETE_ACCOUNT_DIALOG_HEIGHT}
      buttons={
        <>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() => void submit()}
          >
            {t('profile.deleteAccount')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p>{t('profile.deleteAccountText')}</p>
        <div className="form-field">
          <label htmlFor={`${id}-username`}>{t('profile.username')}</label>
          <input
            id={`${id}-username`}
            type="text"
            autoComplete="off"
            value={typedUsername}
            onChange={(event) => setTypedUsername(event.target.value)}
          />
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-password`}>{t('profile.password')}</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
