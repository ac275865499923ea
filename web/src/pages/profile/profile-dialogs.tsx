import { isAvatarFileName } from '@scriptorium/common/api/user';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/dialog/dialog';
import { FieldErrors, FormErrorList } from '../../components/form/field-errors';
import { EmailField, TextField } from '../../components/form/text-field';
import { showToast } from '../../components/toast/toast';
import { accountApi, errorMessageOf, fieldMessagesOf, statusOf } from '../account/account-api';

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

  async function upload() {
    if (!file) return;
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
    <FormDialog
      title={t('profile.uploadTitle')}
      onClose={onClose}
      submitLabel={t('profile.upload')}
      onSubmit={upload}
      busy={busy}
    >
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
    </FormDialog>
  );
}

/** Profile change-password dialog (spec 5, 8). */
export function ChangePasswordDialog({ onClose }: DialogBase) {
  const { t } = useTranslation('accounts');
  const [values, setValues] = useState({ old_password: '', new_password1: '', new_password2: '' });
  const [general, setGeneral] = useState<string[]>([]);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  async function submit() {
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
    <TextField
      label={label}
      name={name}
      type="password"
      autoComplete={autoComplete}
      value={values[name]}
      onChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
      errors={fields[name]}
    />
  );

  return (
    <FormDialog
      title={t('profile.changePasswordTitle')}
      onClose={onClose}
      submitLabel={t('profile.change')}
      onSubmit={submit}
      busy={busy}
    >
      <FormErrorList errors={general} />
      {field('old_password', t('profile.oldPassword'), 'current-password')}
      {field('new_password1', t('profile.newPassword1'), 'new-password')}
      {field('new_password2', t('profile.newPassword2'), 'new-password')}
    </FormDialog>
  );
}

/** Add e-mail (width 400): trimmed, required, then a confirmation mail. */
export function AddEmailDialog({ onClose, onAdded }: DialogBase & { onAdded(): Promise<void> }) {
  const { t } = useTranslation('accounts');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function submit() {
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
    <FormDialog
      title={t('profile.addEmailTitle')}
      onClose={onClose}
      width={ADD_EMAIL_DIALOG_WIDTH}
      submitLabel={t('profile.add')}
      onSubmit={submit}
      busy={busy}
    >
      <EmailField label={t('profile.newEmail')} value={email} onChange={setEmail} errors={errors} />
    </FormDialog>
  );
}

/** Account deletion (height 250): nothing happens unless the username matches and a password is given. */
export function DeleteAccountDialog({
  username,
  onClose,
  onDeleted,
}: DialogBase & { username: string; onDeleted(): Promise<void> }) {
  const { t } = useTranslation('accounts');
  const [typedUsername, setTypedUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit() {
    // Spec 5: the typed username must equal the current one and the password be non-empty.
    if (typedUsername !== username || password === '') return;
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
    <FormDialog
      title={t('profile.deleteAccountTitle')}
      onClose={onClose}
      height={DELETE_ACCOUNT_DIALOG_HEIGHT}
      submitLabel={t('profile.deleteAccount')}
      onSubmit={submit}
      busy={busy}
      tone="danger"
    >
      <p>{t('profile.deleteAccountText')}</p>
      <TextField
        label={t('profile.username')}
        autoComplete="off"
        value={typedUsername}
        onChange={setTypedUsername}
      />
      <TextField
        label={t('profile.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
    </FormDialog>
  );
}
