import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';
import { TextField } from '../../components/form/text-field';
import { accountApi, formErrorsOf } from '../account/account-api';
import { AccountFormPage, AccountKeyChecking, AccountMessage } from '../account/account-page';
import { useKeyCheck } from '../account/key-check';

export interface ChangePasswordPageProps {
  /** The reset key; the router moves it from the address into history state (spec 2.1). Null when missing. */
  resetKey: string | null;
}

const PASSWORD_RESET_PATH = '/account/password-reset/';

/** Change-password page after a reset (spec 2.3, 5): check the key, two passwords, 'Password reset'. */
export function ChangePasswordPage({ resetKey }: ChangePasswordPageProps) {
  const { t } = useTranslation('web');
  const { t: ta } = useTranslation('accounts');
  const title = t('pages.changePassword.title');
  usePageTitle(title);
  const check = useKeyCheck(resetKey, accountApi.checkResetKey);
  const [done, setDone] = useState(false);
  const [password1, setPassword1] = useState('');
  const [password2, setPassword2] = useState('');
  const [errors, setErrors] = useState<{ general: string[]; password1: string[]; password2: string[] }>({
    general: [],
    password1: [],
    password2: [],
  });
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || check.kind !== 'valid' || !resetKey) return;
    const required = [ta('common.required')];
    const missing = {
      general: [],
      password1: password1 === '' ? required : [],
      password2: password2 === '' ? required : [],
    };
    if (missing.password1.length || missing.password2.length) return setErrors(missing);
    if (password1 !== password2) {
      return setErrors({ general: [], password1: [], password2: [ta('changePassword.mismatch')] });
    }
    setErrors({ general: [], password1: [], password2: [] });
    setBusy(true);
    try {
      await accountApi.setPassword(resetKey, password1, password2);
      setDone(true);
    } catch (error) {
      const form = formErrorsOf(error);
      setErrors(
        form
          ? {
              general: form.general,
              password1: form.fields.password1 ?? [],
              password2: form.fields.password2 ?? [],
            }
          : { general: [ta('changePassword.failed')], password1: [], password2: [] },
      );
    } finally {
      setBusy(false);
    }
  }

  if (check.kind === 'checking') return <AccountKeyChecking />;
  if (check.kind === 'invalid') {
    return (
      <AccountMessage
        heading={title}
        text={ta('changePassword.invalidKey')}
        next={{ href: PASSWORD_RESET_PATH, label: ta('changePassword.requestNew') }}
      />
    );
  }
  if (done) {
    return (
      <AccountMessage
        heading={ta('changePassword.done')}
        text={ta('changePassword.doneText')}
        next={{ href: '/', label: ta('changePassword.login') }}
      />
    );
  }
  return (
    <AccountFormPage
      heading={title}
      intro={ta('changePassword.intro')}
      errors={errors.general}
      submitLabel={ta('changePassword.submit')}
      busy={busy}
      onSubmit={submit}
    >
      {(['password1', 'password2'] as const).map((name) => (
        <TextField
          key={name}
          label={ta(`changePassword.${name}`)}
          name={name}
          type="password"
          autoComplete="new-password"
          value={name === 'password1' ? password1 : password2}
          onChange={name === 'password1' ? setPassword1 : setPassword2}
          errors={errors[name]}
        />
      ))}
    </AccountFormPage>
  );
}
