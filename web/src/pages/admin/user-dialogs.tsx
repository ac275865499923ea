import type { AdminDeletionSummary, AdminUser } from '@scriptorium/common/api/admin';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCurrentUser } from '../../app/configuration/app-context';
import { Dialog } from '../../components/dialog/dialog';
import { Form } from '../../components/form/form';
import { LabelledInput } from '../../components/form/labelled-input';
import { RadioGroup } from '../../components/form/radio-group';
import { showToast } from '../../components/toast/toast';
import { AdminCheckbox, FormErrorList, useAdminSubmit } from './admin-form';
import { useAdminFormat } from './admin-format';
import { UserEmails } from './user-emails';

interface UserFieldValues {
  username: string;
  first_name: string;
  last_name: string;
  is_staff: boolean;
}

/** The fields an account has in both dialogs; `children` go after the username (the address). */
function UserFields({
  form,
  onChange,
  fields,
  autoFocus = false,
  children,
}: {
  form: UserFieldValues;
  onChange(changed: Partial<UserFieldValues>): void;
  fields: Record<string, string[]>;
  autoFocus?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <LabelledInput
        label={t('users.fields.username')}
        value={form.username}
        onChange={(username) => onChange({ username })}
        errors={fields.username}
        required
        autoFocus={autoFocus}
      />
      {children}
      <LabelledInput
        label={t('users.fields.firstName')}
        value={form.first_name}
        onChange={(first_name) => onChange({ first_name })}
        errors={fields.first_name}
      />
      <LabelledInput
        label={t('users.fields.lastName')}
        value={form.last_name}
        onChange={(last_name) => onChange({ last_name })}
        errors={fields.last_name}
      />
      <AdminCheckbox
        label={t('users.fields.staff')}
        checked={form.is_staff}
        onChange={(is_staff) => onChange({ is_staff })}
        errors={fields.is_staff}
      />
    </>
  );
}

/** The staff user dialogs' footer: leave (Cancel or Close), then submit the dialog's form. */
function CloseAndSubmit(props: {
  close: string;
  submit: string;
  form: string;
  busy: boolean;
  onClose(): void;
}) {
  return (
    <>
      <button type="button" className="button" onClick={props.onClose}>
        {props.close}
      </button>
      <button type="submit" form={props.form} className="button button-primary" disabled={props.busy}>
        {props.submit}
      </button>
    </>
  );
}

/** Creates an account; its owner gets a mail with a link to set the password. */
export function CreateUserDialog({
  onClose,
  onCreated,
}: {
  onClose(): void;
  onCreated(user: AdminUser): void;
}) {
  const { t } = useTranslation('admin');
  const [form, setForm] = useState({
    username: '',
    email: '',
    first_name: '',
    last_name: '',
    is_staff: false,
  });
  const { busy, fields, general, submit } = useAdminSubmit();
  const formId = useId();

  const save = () =>
    submit(async () => {
      const { user } = await call(adminApi.createUser, form);
      showToast(t('users.created', { username: user.username, email: form.email }), 'success');
      onCreated(user);
    });

  return (
    <Dialog
      title={t('users.createTitle')}
      onClose={onClose}
      width={480}
      buttons={
        <CloseAndSubmit
          close={t('cancel')}
          submit={t('users.createSubmit')}
          form={formId}
          busy={busy}
          onClose={onClose}
        />
      }
    >
      <Form id={formId} className="form" onSubmit={save}>
        <FormErrorList errors={general} />
        <UserFields
          form={form}
          onChange={(changed) => setForm({ ...form, ...changed })}
          fields={fields}
          autoFocus
        >
          <LabelledInput
            label={t('users.fields.email')}
            type="email"
            value={form.email}
            onChange={(email) => setForm({ ...form, email })}
            errors={fields.email}
            required
            hint={t('users.createHint')}
          />
        </UserFields>
      </Form>
    </Dialog>
  );
}

/** One account: edit its names and staff flag, and the actions on it. */
export function UserDialog({
  user,
  onClose,
  onChanged,
  onDelete,
}: {
  user: AdminUser;
  onClose(): void;
  onChanged(user: AdminUser): void;
  onDelete(): void;
}) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const me = useCurrentUser();
  const self = me?.username === user.username;
  const [form, setForm] = useState({
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    is_staff: user.is_staff,
  });
  const { busy, fields, general, submit } = useAdminSubmit();
  const formId = useId();
  const unconfirmed = user.emails.filter((email) => !email.verified).length;

  // The action buttons are not disabled while a call runs (a disabled button loses the focus,
  // and Escape would then no longer reach the dialog); a second click meanwhile is ignored.
  const run = async (action: () => Promise<AdminUser | null>, message: string) => {
    if (busy) return;
    await submit(async () => {
      const changed = await action();
      showToast(message, 'success');
      if (changed) onChanged(changed);
    });
  };

  return (
    <Dialog
      title={t('users.dialogTitle', { username: user.username })}
      onClose={onClose}
      width={560}
      buttons={
        <CloseAndSubmit close={t('close')} submit={t('save')} form={formId} busy={busy} onClose={onClose} />
      }
    >
      <dl className="admin-facts">
        <dt>{t('users.columns.lastLogin')}</dt>
        <dd>{format.date(user.last_login)}</dd>
        <dt>{t('users.joined')}</dt>
        <dd>{format.date(user.created)}</dd>
        <dt>{t('users.columns.documents')}</dt>
        <dd>{format.number(user.documents)}</dd>
        <dt>{t('users.columns.storage')}</dt>
        <dd>{format.bytes(user.storage)}</dd>
      </dl>
      <UserEmails user={user} onChanged={onChanged} />
      <Form
        id={formId}
        className="form"
        onSubmit={() =>
          run(async () => (await call(adminApi.updateUser, { id: user.id, ...form })).user, t('users.saved'))
        }
      >
        <FormErrorList errors={general} />
        <UserFields form={form} onChange={(changed) => setForm({ ...form, ...changed })} fields={fields} />
      </Form>
      <fieldset className="admin-actions">
        <legend className="visually-hidden">{t('users.actions')}</legend>
        {/* One button whose label follows the state: the focus stays on it after a click. */}
        <button
          type="button"
          className="button"
          disabled={self && user.is_active}
          onClick={() =>
            void run(
              async () => (await call(adminApi.setUserActive, { id: user.id, active: !user.is_active })).user,
              user.is_active
                ? t('users.deactivated', { username: user.username })
                : t('users.activated', { username: user.username }),
            )
          }
        >
          {user.is_active ? t('users.deactivate') : t('users.activate')}
        </button>
        <button
          type="button"
          className="button"
          disabled={unconfirmed === 0}
          onClick={() =>
            void run(
              async () => {
                await call(adminApi.resendConfirmation, { id: user.id });
                return null;
              },
              t('users.confirmationSent', { count: unconfirmed }),
            )
          }
        >
          {t('users.resendConfirmation')}
        </button>
        <button
          type="button"
          className="button"
          disabled={!user.locked}
          onClick={() =>
            void run(
              async () => (await call(adminApi.resetLockout, { id: user.id })).user,
              t('users.lockoutReset', { username: user.username }),
            )
          }
        >
          {t('users.resetLockout')}
        </button>
        <button type="button" className="button button-danger" disabled={self} onClick={onDelete}>
          {t('users.delete')}
        </button>
      </fieldset>
      {self ? <p className="admin-hint">{t('users.selfHint')}</p> : null}
    </Dialog>
  );
}

/** Says what goes with the account, and where its documents go, before deleting it. */
export function DeleteUserDialog({
  user,
  onClose,
  onDeleted,
}: {
  user: AdminUser;
  onClose(): void;
  onDeleted(): void;
}) {
  const { t } = useTranslation('admin');
  const [summary, setSummary] = useState<AdminDeletionSummary | null>(null);
  const [documents, setDocuments] = useState<'delete' | 'transfer'>('delete');
  const [heir, setHeir] = useState('');
  const { busy, fields, general, submit } = useAdminSubmit();

  useEffect(() => {
    call(adminApi.deletionSummary, { id: user.id }).then(setSummary, () =>
      showToast(t('users.loadError'), 'error'),
    );
  }, [user.id, t]);

  const confirm = () =>
    submit(async () => {
      await call(adminApi.deleteUser, {
        id: user.id,
        documents,
        transfer_to: documents === 'transfer' ? heir : '',
      });
      showToast(t('users.deleted', { username: user.username }), 'success');
      onDeleted();
    });

  return (
    <Dialog
      title={t('users.deleteTitle', { username: user.username })}
      onClose={onClose}
      width={520}
      buttons={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={busy || !summary}
            onClick={() => void confirm()}
          >
            {t('users.deleteConfirm')}
          </button>
        </>
      }
    >
      <FormErrorList errors={general} />
      {summary ? (
        <p>
          {t('users.deleteSummary', {
            username: user.username,
            documents: summary.documents,
            images: summary.images,
            bibliography: summary.bibliography,
            contacts: summary.contacts,
          })}
        </p>
      ) : (
        <p role="status">{t('loading')}</p>
      )}
      <RadioGroup
        className="admin-choice"
        label={t('users.documentsGo')}
        value={documents}
        options={[
          { value: 'delete', label: t('users.documentsDelete') },
          { value: 'transfer', label: t('users.documentsTransfer') },
        ]}
        onChange={setDocuments}
      />
      {documents === 'transfer' ? (
        <LabelledInput
          label={t('users.transferTo')}
          value={heir}
          onChange={setHeir}
          errors={fields.transfer_to}
          required
        />
      ) : null}
    </Dialog>
  );
}
