import { userApi } from '@scriptorium/common/api/endpoints/user';
import { apiError } from '@scriptorium/common/api/errors';
import { formErrors } from '@scriptorium/common/api/user';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { useAppContext } from '../../app/configuration/app-context';
import { useLoginFormPresence } from '../../app/login-form-presence';
import { usePageTitle } from '../../app/page-title';
import { FormErrorList } from '../../components/form/field-errors';
import { SubmitActions } from '../../components/form/submit-actions';
import { TextField } from '../../components/form/text-field';
import { MessagePage, Page } from '../../components/page/page';
import { WaitOverlay } from '../../components/wait-overlay/wait-overlay';

export const PASSWORD_RESET_PATH = '/account/password-reset/';

interface Errors {
  login: string[];
  password: string[];
  general: string[];
}

const NO_ERRORS: Errors = { login: [], password: [], general: [] };

/** Maps a failed login answer (400 form errors, 429 lock, anything else) onto the form. */
function errorsFrom(error: unknown, fallback: string): Errors {
  if (error instanceof ApiError) {
    const form = formErrors.safeParse(error.body);
    if (form.success) {
      const { errors, fields } = form.data.form;
      const general = [...errors];
      // Errors of fields this form does not show still have to reach the user.
      for (const [name, field] of Object.entries(fields)) {
        if (name !== 'login' && name !== 'password') general.push(...field.errors);
      }
      const result = {
        login: fields.login?.errors ?? [],
        password: fields.password?.errors ?? [],
        general,
      };
      if (result.login.length + result.password.length + result.general.length > 0) return result;
    }
    const plain = apiError.safeParse(error.body);
    if (plain.success) return { ...NO_ERRORS, general: [plain.data.message] };
  }
  return { ...NO_ERRORS, general: [fallback] };
}

/** The server's login answer points at the confirm-email page when the address still needs verifying. */
function asksForVerification(location: string): boolean {
  return location.includes('confirm-email');
}

function VerifyEmailNotice() {
  const { t } = useTranslation('web');
  usePageTitle(t('login.verifyTitle'));
  return <MessagePage heading={t('login.verifyTitle')} text={t('login.verifyText')} />;
}

/**
 * Spec 2.3 and 5: username-or-e-mail and password are required (no request is sent while one is
 * empty); on success the app initialises again at the current address, so the user lands where
 * they wanted to go.
 */
export function LoginPage() {
  const { t } = useTranslation('web');
  const { configuration, reloadConfiguration } = useAppContext();
  usePageTitle(t('login.title'));
  const id = useId();
  const loginInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  // A failed social login comes back to /?social=failed (server/src/social/routes.ts).
  const [errors, setErrors] = useState<Errors>(() =>
    new URLSearchParams(window.location.search).get('social') === 'failed'
      ? { ...NO_ERRORS, general: [t('login.socialFailed')] }
      : NO_ERRORS,
  );
  const [busy, setBusy] = useState(false);
  const [verificationSent, setVerificationSent] = useState(false);
  useLoginFormPresence(!verificationSent);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const required = [t('form.required')];
    const missing: Errors = {
      login: login.trim() === '' ? required : [],
      password: password === '' ? required : [],
      general: [],
    };
    if (missing.login.length || missing.password.length) {
      setErrors(missing);
      (missing.login.length ? loginInput : passwordInput).current?.focus();
      return;
    }
    setErrors(NO_ERRORS);
    setBusy(true);
    try {
      const answer = await call(userApi.login, { login: login.trim(), password, remember });
      if (asksForVerification(answer.location)) {
        setVerificationSent(true);
      } else {
        await reloadConfiguration();
      }
    } catch (error) {
      setErrors(errorsFrom(error, t('login.failed')));
    } finally {
      setBusy(false);
    }
  }

  if (verificationSent) return <VerifyEmailNotice />;

  const providers = configuration.socialaccount_providers;
  return (
    <Page heading={t('login.title')} className="login-page">
      <form className="form" noValidate onSubmit={submit}>
        <FormErrorList errors={errors.general} />
        <TextField
          inputRef={loginInput}
          label={t('login.username')}
          name="login"
          autoComplete="username"
          value={login}
          onChange={setLogin}
          errors={errors.login}
        />
        <TextField
          inputRef={passwordInput}
          label={t('login.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          errors={errors.password}
        />
        <div className="form-field form-field-inline">
          <input
            id={`${id}-remember`}
            name="remember"
            type="checkbox"
            checked={remember}
            onChange={(event) => setRemember(event.target.checked)}
          />
          <label htmlFor={`${id}-remember`}>{t('login.remember')}</label>
        </div>
        <SubmitActions label={t('login.submit')} busy={busy}>
          <a href={PASSWORD_RESET_PATH}>{t('login.forgot')}</a>
        </SubmitActions>
      </form>
      {providers.length > 0 && (
        <section className="social-login" aria-labelledby={`${id}-social`}>
          <h2 id={`${id}-social`}>{t('login.social')}</h2>
          <ul className="stack-list">
            {providers.map((provider) => (
              <li key={provider.id}>
                <button
                  type="button"
                  className="button"
                  onClick={() => window.location.assign(provider.login_url)}
                >
                  {provider.name}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <WaitOverlay active={busy} message={t('login.waiting')} />
    </Page>
  );
}
