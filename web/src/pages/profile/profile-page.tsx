import type { AuthenticatedUser, EmailEntry, SocialAccount } from '@scriptorium/common/api/base';
import { Check, ChevronDown, Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useAppContext } from '../../app/configuration/app-context';
import { usePageTitle } from '../../app/page-title';
import { navigate } from '../../app/router/navigation';
import { ConfirmDialog } from '../../components/dialog/dialog';
import { Radio, RadioGroupFrame } from '../../components/form/radio-group';
import { TextField } from '../../components/form/text-field';
import { showToast } from '../../components/toast/toast';
import { accountApi, fieldMessagesOf } from '../account/account-api';
import { AccessTokens } from './access-tokens';
import {
  AddEmailDialog,
  ChangePasswordDialog,
  DeleteAccountDialog,
  UploadAvatarDialog,
} from './profile-dialogs';
import './profile.css';
import { IconButton } from '../../components/button/icon-button';
import { ColumnHeads } from '../../components/data-table/column-heads';
import { Page } from '../../components/page/page';

type DialogState =
  | { kind: 'none' }
  | { kind: 'upload' }
  | { kind: 'deleteAvatar' }
  | { kind: 'password' }
  | { kind: 'addEmail' }
  | { kind: 'removeEmail'; email: string }
  | { kind: 'primary'; email: string }
  | { kind: 'removeSocial'; account: SocialAccount; providerName: string }
  | { kind: 'deleteAccount' };

function ProfileAvatar({ user, onAction }: { user: AuthenticatedUser; onAction(key: string): void }) {
  const { t } = useTranslation('accounts');
  const initial = (user.name || user.username).charAt(0).toUpperCase();
  return (
    <div className="profile-avatar">
      {user.avatar ? (
        <img
          className="profile-avatar-image"
          src={user.avatar}
          alt={t('profile.avatar')}
          width={120}
          height={120}
        />
      ) : (
        <span
          className="profile-avatar-image profile-avatar-initial"
          role="img"
          aria-label={t('profile.avatar')}
        >
          {initial}
        </span>
      )}
      <MenuTrigger>
        <Button className="button profile-avatar-button" aria-label={t('profile.pictureMenu')}>
          <ChevronDown aria-hidden="true" />
        </Button>
        <Popover placement="bottom start" className="menu-popover">
          <Menu className="menu" onAction={(key) => onAction(String(key))}>
            <MenuItem id="change" className="menu-item">
              {t('profile.changePicture')}
            </MenuItem>
            {user.avatar ? (
              <MenuItem id="delete" className="menu-item">
                {t('profile.deletePicture')}
              </MenuItem>
            ) : null}
          </Menu>
        </Popover>
      </MenuTrigger>
    </div>
  );
}

function EmailTable({
  emails,
  onPrimary,
  onRemove,
  onAdd,
}: {
  emails: EmailEntry[];
  onPrimary(email: string): void;
  onRemove(email: string): void;
  onAdd(): void;
}) {
  const { t } = useTranslation('accounts');
  return (
    // One radio group across the rows: arrow keys move between the verified addresses. Choosing
    // one only asks (onPrimary); the group shows the primary address until the server says so.
    <RadioGroupFrame
      aria-label={t('profile.primary')}
      value={emails.find((email) => email.primary)?.address ?? null}
      onChange={onPrimary}
    >
      <table className="profile-table profile-emails">
        <caption>{t('profile.emails')}</caption>
        <ColumnHeads
          labels={[t('profile.emailAddress'), t('profile.primary'), t('profile.verified')]}
          actions={t('profile.actions')}
        />
        <tbody>
          {emails.map((email) => (
            <tr key={email.address} data-email={email.address}>
              <td>{email.address}</td>
              <td>
                {email.verified ? (
                  <Radio value={email.address} label={t('profile.primaryOf', { email: email.address })} />
                ) : null}
              </td>
              <td>
                {email.verified ? (
                  <span className="profile-verified" role="img" aria-label={t('profile.verifiedYes')}>
                    <Check aria-hidden="true" />
                  </span>
                ) : (
                  <span className="visually-hidden">{t('profile.verifiedNo')}</span>
                )}
              </td>
              <td>
                {email.primary ? null : (
                  <IconButton
                    label={t('profile.deleteEmailOf', { email: email.address })}
                    icon={Trash2}
                    onPress={() => onRemove(email.address)}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={4}>
              <IconButton label={t('profile.addEmail')} icon={Plus} onPress={onAdd} />
            </td>
          </tr>
        </tfoot>
      </table>
    </RadioGroupFrame>
  );
}

/** Profile page (spec 2.6): picture, names, password, e-mail addresses, social accounts. */
export function ProfilePage() {
  const { t } = useTranslation('web');
  const { t: ta } = useTranslation('accounts');
  const { configuration, user, reloadConfiguration } = useAppContext();
  const title = t('pages.profile.title');
  usePageTitle(title);
  const id = useId();
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const [names, setNames] = useState({
    username: user?.username ?? '',
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
  });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);

  // After a reload of the configuration the form shows what the server now has.
  useEffect(() => {
    if (user) setNames({ username: user.username, first_name: user.first_name, last_name: user.last_name });
  }, [user]);

  // The social login callback comes back with ?social=failed when a connect did not work.
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.get('social') === 'failed') {
      showToast(ta('profile.socialConnectFailed'), 'error');
      window.history.replaceState(window.history.state, '', window.location.pathname);
    }
  }, [ta]);

  if (!user) return null;
  const providers = configuration.socialaccount_providers;
  const close = () => setDialog({ kind: 'none' });
  /**
   * A confirm dialog's account change: a failure is toasted and rethrown (the dialog stays open);
   * success is toasted when there is a text for it, and the configuration reloads.
   */
  const confirmed = (change: () => Promise<unknown>, failedText: string, doneText?: string) => async () => {
    try {
      await change();
    } catch (failure) {
      showToast(failedText, 'error');
      throw failure;
    }
    if (doneText) showToast(doneText, 'success');
    await reloadConfiguration();
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setFieldErrors({});
    try {
      await accountApi.saveProfile({
        username: names.username.trim(),
        first_name: names.first_name.trim(),
        last_name: names.last_name.trim(),
      });
      showToast(ta('profile.saved'), 'success');
      await reloadConfiguration();
    } catch (failure) {
      const messages = fieldMessagesOf(failure);
      if (messages) setFieldErrors(messages);
      showToast(ta('profile.saveError'), 'error');
    } finally {
      setSaving(false);
    }
  }

  const nameField = (name: keyof typeof names, label: string, autoComplete: string) => (
    <TextField
      label={label}
      name={name}
      autoComplete={autoComplete}
      value={names[name]}
      onChange={(value) => setNames((current) => ({ ...current, [name]: value }))}
      errors={fieldErrors[name]}
    />
  );

  return (
    <Page heading={title} className="profile-page">
      <div className="profile-layout">
        <ProfileAvatar
          user={user}
          onAction={(key) => setDialog({ kind: key === 'delete' ? 'deleteAvatar' : 'upload' })}
        />
        <form
          id={`${id}-form`}
          className="form profile-form"
          noValidate
          onSubmit={(event) => void save(event)}
        >
          {nameField('username', ta('profile.username'), 'username')}
          {nameField('first_name', ta('profile.firstName'), 'given-name')}
          {nameField('last_name', ta('profile.lastName'), 'family-name')}
          <div className="form-field">
            <label htmlFor={`${id}-password`}>{ta('profile.password')}</label>
            <div className="profile-password">
              <input id={`${id}-password`} type="password" value="********" readOnly />
              <IconButton
                label={ta('profile.editPassword')}
                icon={Pencil}
                onPress={() => setDialog({ kind: 'password' })}
              />
            </div>
          </div>
        </form>
      </div>

      <EmailTable
        emails={user.emails}
        onAdd={() => setDialog({ kind: 'addEmail' })}
        onPrimary={(email) => setDialog({ kind: 'primary', email })}
        onRemove={(email) => setDialog({ kind: 'removeEmail', email })}
      />

      {providers.length > 0 && (
        <table className="profile-table profile-social">
          <caption>{ta('profile.socialAccounts')}</caption>
          <ColumnHeads
            labels={[ta('profile.provider'), ta('profile.account')]}
            actions={ta('profile.actions')}
          />
          <tbody>
            {providers.map((provider) => {
              const account = user.socialaccounts.find((a) => a.provider === provider.id);
              return (
                <tr key={provider.id}>
                  <td>{provider.name}</td>
                  <td>{account?.name ?? ''}</td>
                  <td>
                    {account ? (
                      <IconButton
                        label={ta('profile.removeSocialOf', { provider: provider.name })}
                        icon={Trash2}
                        onPress={() =>
                          setDialog({ kind: 'removeSocial', account, providerName: provider.name })
                        }
                      />
                    ) : (
                      <a href={`${provider.login_url}?process=connect`}>{ta('profile.connect')}</a>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <div className="form-actions profile-actions">
        <button type="submit" form={`${id}-form`} className="button button-primary" disabled={saving}>
          {ta('profile.submit')}
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={() => setDialog({ kind: 'deleteAccount' })}
        >
          {ta('profile.deleteAccount')}
        </button>
      </div>

      <AccessTokens />

      {dialog.kind === 'upload' && <UploadAvatarDialog onClose={close} onUploaded={reloadConfiguration} />}
      {dialog.kind === 'deleteAvatar' && (
        <ConfirmDialog
          title={ta('profile.deletePicture')}
          message={ta('profile.deletePictureQuestion')}
          confirmLabel={ta('profile.delete')}
          onClose={close}
          onConfirm={confirmed(() => accountApi.deleteAvatar(), ta('profile.avatarDeleteError'))}
        />
      )}
      {dialog.kind === 'password' && <ChangePasswordDialog onClose={close} />}
      {dialog.kind === 'addEmail' && <AddEmailDialog onClose={close} onAdded={reloadConfiguration} />}
      {dialog.kind === 'removeEmail' && (
        <ConfirmDialog
          title={ta('profile.removeEmailTitle')}
          message={ta('profile.removeEmailQuestion', { email: dialog.email })}
          confirmLabel={ta('profile.remove')}
          onClose={close}
          onConfirm={confirmed(
            () => accountApi.deleteEmail(dialog.email),
            ta('profile.emailDeleteError'),
            ta('profile.emailDeleted'),
          )}
        />
      )}
      {dialog.kind === 'primary' && (
        <ConfirmDialog
          title={ta('profile.primaryTitle')}
          message={ta('profile.primaryQuestion', { email: dialog.email })}
          confirmLabel={ta('profile.makePrimary')}
          onClose={close}
          onConfirm={confirmed(
            () => accountApi.setPrimaryEmail(dialog.email),
            ta('profile.primaryError'),
            ta('profile.primaryUpdated'),
          )}
        />
      )}
      {dialog.kind === 'removeSocial' && (
        <ConfirmDialog
          title={ta('profile.removeSocialTitle')}
          message={ta('profile.removeSocialQuestion', {
            provider: dialog.providerName,
            name: dialog.account.name,
          })}
          confirmLabel={ta('profile.remove')}
          onClose={close}
          onConfirm={confirmed(
            () => accountApi.deleteSocialAccount(dialog.account.id),
            ta('profile.socialDeleteError'),
            ta('profile.socialDeleted', { provider: dialog.providerName }),
          )}
        />
      )}
      {dialog.kind === 'deleteAccount' && (
        <DeleteAccountDialog
          username={user.username}
          onClose={close}
          onDeleted={async () => {
            // Spec 4: account deletion success sends the browser to the home page.
            navigate('/', { force: true });
            await reloadConfiguration();
          }}
        />
      )}
    </Page>
  );
}
