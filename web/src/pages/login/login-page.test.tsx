import { userApi } from '@scriptorium/common/api/endpoints/user';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  anonymousConfiguration,
  CONFIGURATION,
  json,
  route,
  userConfiguration,
} from '../../app/testing/fake-fetch';
import { startApp } from '../../root/testing/start-app';

// The bibliography screen belongs to a later issue; a stand-in shows where the login lands.
vi.mock('../bibliography/bibliography-page', async () => ({
  BibliographyPage: (await import('../../app/testing/page-stubs')).stubPage('bibliography'),
}));

const LOGIN = route(userApi.login);
const REQUIRED = 'This field is required.';

/** Waits for the login page of an app started with startApp(). */
async function openLoginPage() {
  await screen.findByRole('heading', { name: 'Log in' });
  // Waits until the header has hidden its own Log in button (one button left).
  const submit = await screen.findByRole('button', { name: 'Log in' });
  const login = screen.getByLabelText('Username or e-mail') as HTMLInputElement;
  const password = screen.getByLabelText('Password') as HTMLInputElement;
  return {
    login,
    password,
    remember: screen.getByRole('checkbox', { name: 'Remember me' }) as HTMLInputElement,
    submit,
    /** Fills in both fields and presses Log in. */
    submitWith(loginText: string, passwordText: string) {
      fireEvent.change(login, { target: { value: loginText } });
      fireEvent.change(password, { target: { value: passwordText } });
      fireEvent.click(submit);
    },
  };
}

function fieldErrors(input: HTMLElement): string[] {
  const id = input.getAttribute('aria-describedby');
  const list = id ? document.getElementById(id) : null;
  return list
    ? within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent ?? '')
    : [];
}

describe('login page (spec 2.3 and 5)', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/bibliography/');
  });

  it('is shown at a login-only address, with the fields, Remember me and Forgot Password', async () => {
    startApp(anonymousConfiguration);
    const form = await openLoginPage();
    expect(window.location.pathname).toBe('/bibliography/');
    expect(form.login.type).toBe('text');
    expect(form.password.type).toBe('password');
    expect(form.remember.checked).toBe(false);
    expect(screen.getByRole('link', { name: 'Forgot Password' }).getAttribute('href')).toBe(
      '/account/password-reset/',
    );
    // Only the form's button: the header's Log in button is hidden on the login page itself.
    expect(screen.getAllByRole('button', { name: 'Log in' })).toHaveLength(1);
    expect(document.title).toBe('Log in - Scriptorium');
  });

  it('sends no request and marks each empty field with "This field is required."', async () => {
    const server = startApp(anonymousConfiguration);
    const form = await openLoginPage();
    fireEvent.click(form.submit);
    expect(fieldErrors(form.login)).toEqual([REQUIRED]);
    expect(fieldErrors(form.password)).toEqual([REQUIRED]);
    expect(form.login.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(form.login);

    form.submitWith('   ', 'secret');
    expect(fieldErrors(form.login)).toEqual([REQUIRED]);
    expect(fieldErrors(form.password)).toEqual([]);

    form.submitWith('ada', '');
    expect(fieldErrors(form.login)).toEqual([]);
    expect(fieldErrors(form.password)).toEqual([REQUIRED]);
    expect(screen.getAllByText(REQUIRED)).toHaveLength(1);

    expect(server.count(LOGIN)).toBe(0);
  });

  it('shows server errors under the matching field and in the general list', async () => {
    startApp(anonymousConfiguration, {
      [LOGIN]: json(
        {
          form: {
            errors: ['The username and/or password you specified are not correct.'],
            fields: { login: { errors: ['Unknown user.'] }, password: { errors: ['Too short.'] } },
          },
        },
        400,
      ),
    });
    const form = await openLoginPage();
    form.submitWith('ada', 'wrong');
    expect(
      await screen.findByText('The username and/or password you specified are not correct.'),
    ).toBeTruthy();
    expect(fieldErrors(form.login)).toEqual(['Unknown user.']);
    expect(fieldErrors(form.password)).toEqual(['Too short.']);
  });

  it('shows a 429 lock answer in the general list', async () => {
    startApp(anonymousConfiguration, {
      [LOGIN]: json(
        { form: { errors: ['Too many failed login attempts. Try again later.'], fields: {} } },
        429,
      ),
    });
    const form = await openLoginPage();
    form.submitWith('ada', 'wrong');
    const alert = await screen.findByText('Too many failed login attempts. Try again later.');
    expect(alert.closest('[role="alert"]')).toBeTruthy();
  });

  it('explains a failed social login that came back to /?social=failed', async () => {
    window.history.replaceState(null, '', '/?social=failed');
    startApp(anonymousConfiguration);
    await openLoginPage();
    expect(
      screen.getByText('Logging in with that account did not work. Try again, or log in with your password.'),
    ).toBeTruthy();
  });

  it('says so when the server cannot be reached', async () => {
    startApp(anonymousConfiguration, { [LOGIN]: new TypeError('Failed to fetch') });
    const form = await openLoginPage();
    form.submitWith('ada', 'pw');
    expect(
      await screen.findByText('Logging in failed. Please check your connection and try again.'),
    ).toBeTruthy();
  });

  it('posts the credentials and re-initialises at the address the user wanted', async () => {
    const server = startApp([json(anonymousConfiguration), json(userConfiguration())], {
      [LOGIN]: json({ location: '/' }),
    });
    const form = await openLoginPage();
    fireEvent.change(form.login, { target: { value: ' ada@example.org ' } });
    fireEvent.change(form.password, { target: { value: 'correct horse' } });
    fireEvent.click(form.remember);
    fireEvent.click(form.submit);
    expect(await screen.findByRole('heading', { name: 'bibliography screen' })).toBeTruthy();
    expect(window.location.pathname).toBe('/bibliography/');
    const sent = server.requests.find((request) => `${request.method} ${request.url}` === LOGIN);
    expect(Object.fromEntries(sent?.body ?? [])).toEqual({
      login: 'ada@example.org',
      password: 'correct horse',
      remember: 'true',
    });
    expect(server.count(CONFIGURATION)).toBe(2);
  });

  it('asks to verify the e-mail address when the server points at the confirm-email page', async () => {
    const server = startApp(anonymousConfiguration, {
      [LOGIN]: json({ location: '/account/confirm-email/' }),
    });
    const form = await openLoginPage();
    form.submitWith('ada', 'pw');
    expect(await screen.findByRole('heading', { name: 'Verify Your E-mail Address' })).toBeTruthy();
    expect(server.count(CONFIGURATION)).toBe(1);
    // The form is gone, so the header offers Log in again.
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
  });

  it('offers one button per social provider, and none without providers', async () => {
    startApp({
      ...anonymousConfiguration,
      socialaccount_providers: [
        { id: 'orcid', name: 'ORCID', login_url: '/api/user/social/orcid/login/' },
        { id: 'github', name: 'GitHub', login_url: '/api/user/social/github/login/' },
      ],
    });
    await openLoginPage();
    expect(screen.getByRole('heading', { name: 'Or log in with' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'ORCID' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'GitHub' })).toBeTruthy();
  });

  it('has no social section when no providers are configured', async () => {
    startApp(anonymousConfiguration);
    await openLoginPage();
    expect(screen.queryByRole('heading', { name: 'Or log in with' })).toBeNull();
  });
});
