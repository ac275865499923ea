import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfiguration } from '../../app/configuration/app-context';
import { usePageTitle } from '../../app/page-title';
import { EmailField } from '../../components/form/text-field';
import { accountApi, formErrorsOf, statusOf } from '../account/account-api';
import { AccountFormPage, AccountMessage } from '../account/account-page';
import { looksLikeEmail } from '../account/email-rule';

/** Password reset request page (spec 2.3, 5): e-mail required and valid; 'Instructions emailed' after. */
export function PasswordResetPage() {
  const { t } = useTranslation('web');
  const { t: ta } = useTranslation('accounts');
  const { contact_email: contactEmail } = useConfiguration();
  const title = t('pages.passwordReset.title');
  usePageTitle(title);
  const [email, setEmail] = useState('');
  const [fieldErrors, setFieldErrors] = useState<string[]>([]);
  const [general, setGeneral] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const value = email.trim();
    if (value === '') return setFieldErrors([ta('common.required')]);
    if (!looksLikeEmail(value)) return setFieldErrors([ta('common.invalidEmail')]);
    setFieldErrors([]);
    setGeneral([]);
    setBusy(true);
    try {
      await accountApi.requestReset(value);
      setDone(true);
    } catch (error) {
      const form = formErrorsOf(error);
      if (form) {
        setFieldErrors(form.fields.email ?? []);
        setGeneral(form.general);
      } else {
        setGeneral([statusOf(error) === 429 ? ta('passwordReset.tooMany') : ta('passwordReset.failed')]);
      }
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return <AccountMessage heading={ta('passwordReset.done')} text={ta('passwordReset.doneText')} />;
  }

  return (
    <AccountFormPage
      heading={title}
      intro={ta('passwordReset.intro')}
      errors={general}
      submitLabel={ta('passwordReset.submit')}
      busy={busy}
      onSubmit={submit}
      after={
        contactEmail && (
          <p className="account-contact">{ta('passwordReset.contact', { email: contactEmail })}</p>
        )
      }
    >
      <EmailField
        label={ta('passwordReset.email')}
        name="email"
        value={email}
        onChange={setEmail}
        errors={fieldErrors}
      />
    </AccountFormPage>
  );
}
