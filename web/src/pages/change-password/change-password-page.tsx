import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';
import { FormErrorList } from '../../components/form/field-errors';
import { SubmitActions } from '../../components/form/submit-actions';
import { TextField } from '../../components/form/text-field';
import { MessagePage, Page } from '../../components/page/page';
import { WaitOverlay } from '../../components/wait-overlay/wait-overlay';
import { accountApi, formErrorsOf } from '../account/account-api';
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

  if (check.kind === 'checking') return <section className="page page-loading" aria-busy="true" />;
  if (check.kind === 'invalid') {
    return (
      <MessagePage
        heading={title}
        text={ta('changePassword.invalidKey')}
        className="account-page"
        next={{ href: PASSWORD_RESET_PATH, label: ta('changePassword.requestNew') }}
      />
    );
  }
  if (done) {
    return (
      <MessagePage
        heading={ta('changePassword.done')}
        text={ta('changePassword.doneText')}
        className="account-page"
        next={{ href: '/', label: ta('changePassword.login') }}
      />
    );
  }
  return (
    <Page heading={title} className="account-page">
      <p>{ta('changePassword.intro')}</p>
      <form className="form" noValidate onSubmit={submit}>
        <FormErrorList errors={errors.general} />
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
        <SubmitActions label={ta('changePassword.submit')} busy={busy} />
      </form>
      <WaitOverlay active={busy} message={ta('common.waiting')} />
    </Page>
  );
}
