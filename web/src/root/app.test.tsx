import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { act, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPDATE_RETRY_MS } from '../app/configuration/app-context';
import { startConfigurationLoad, takeConfigurationLoad } from '../app/configuration/load-configuration';
import {
  anonymousConfiguration,
  CONFIGURATION,
  fakeFetch,
  json,
  route,
  userConfiguration,
} from '../app/testing/fake-fetch';
import { applyLanguage, loadLanguage } from '../i18n/i18n';
import { App } from './app';
import { loadLoggedInShell } from './shell/session-hint';
import { startApp } from './testing/start-app';

const UPDATE_TEXT = 'The server is currently being updated. Please wait.';
// The widget engineer's label for the feedback tab; the logged-in test below shows the lookup finds it.
const FEEDBACK_TAB = i18next.t('components:feedbackTitle');

/** Lets pending fetch promises and React updates settle under fake timers. */
async function settle(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function setCookie(text: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays a server that set script-readable cookies.
  document.cookie = text;
}

function clearTestCookies() {
  for (const name of document.cookie.split(';').map((part) => part.split('=')[0].trim())) {
    if (name) setCookie(`${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`);
  }
}

// The logged-in shell is its own chunk: loaded once here, so that fake timers need not wait for it.
beforeAll(async () => {
  await loadLoggedInShell();
});

describe('app start (spec 4 and 8)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    window.history.replaceState(null, '', '/');
    clearTestCookies();
  });
  afterEach(() => {
    clearTestCookies();
  });

  it('uses the configuration load main.tsx started before the first render, and only once', async () => {
    const server = fakeFetch({ [CONFIGURATION]: json(anonymousConfiguration) });
    startConfigurationLoad();
    expect(server.requests).toHaveLength(1);
    render(<App />);
    await settle();
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeTruthy();
    expect(server.requests.map((request) => request.url)).toEqual([baseApi.configuration.path]);
    // A later load (after logging in, say) asks the server anew.
    await act(() => takeConfigurationLoad());
    expect(server.requests).toHaveLength(2);
  });

  it('shows the offline page without asking the server when the browser is offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const server = startApp(anonymousConfiguration);
    await settle();
    expect(screen.getByRole('heading', { name: 'You are offline' })).toBeTruthy();
    expect(server.requests).toHaveLength(0);
  });

  it('shows the offline page when the configuration request fails with a network TypeError', async () => {
    startApp(new TypeError('Failed to fetch'));
    await settle();
    expect(screen.getByRole('heading', { name: 'You are offline' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /(^|\s)Language$/ })).toBeNull();
  });

  it('shows the offline page for other failures: a 500 or an answer that is not a configuration', async () => {
    const { unmount } = startApp(json({ error: 'server_error', message: 'boom' }, 500));
    await settle();
    expect(screen.getByRole('heading', { name: 'You are offline' })).toBeTruthy();
    unmount();

    startApp(json({ user: 'nobody' }));
    await settle();
    expect(screen.getByRole('heading', { name: 'You are offline' })).toBeTruthy();
  });

  it('starts again when the browser comes back online', async () => {
    const server = startApp([new TypeError('Failed to fetch'), json(anonymousConfiguration)]);
    await settle();
    expect(screen.getByRole('heading', { name: 'You are offline' })).toBeTruthy();
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(server.count(CONFIGURATION)).toBe(2);
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeTruthy();
  });

  it('shows the update page on 405 without language selection or feedback tab and retries every 5000 ms', async () => {
    const updating = json({ error: 'updating', message: 'Updating' }, 405);
    const server = startApp([updating, updating, json(userConfiguration())]);
    await settle();
    expect(screen.getByText(UPDATE_TEXT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /(^|\s)Language$/ })).toBeNull();
    expect(screen.queryByRole('button', { name: FEEDBACK_TAB })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
    expect(server.count(CONFIGURATION)).toBe(1);

    await settle(UPDATE_RETRY_MS - 1);
    expect(server.count(CONFIGURATION)).toBe(1);
    await settle(1);
    expect(server.count(CONFIGURATION)).toBe(2);
    expect(screen.getByText(UPDATE_TEXT)).toBeTruthy();

    await settle(UPDATE_RETRY_MS);
    expect(server.count(CONFIGURATION)).toBe(3);
    expect(screen.queryByText(UPDATE_TEXT)).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();

    // Once started, no more retries.
    await settle(UPDATE_RETRY_MS * 2);
    expect(server.count(CONFIGURATION)).toBe(3);
  });

  it('clears the cookies on 403 and tries once more', async () => {
    setCookie('csrftoken=stale; path=/');
    setCookie('language=de; path=/');
    let cookiesAtRetry = 'unset';
    const server = startApp([
      json({ error: 'forbidden', message: 'CSRF' }, 403),
      () => {
        cookiesAtRetry = document.cookie;
        return json(anonymousConfiguration);
      },
    ]);
    await settle();
    expect(cookiesAtRetry).toBe('');
    expect(document.cookie).toBe('');
    expect(server.count(CONFIGURATION)).toBe(2);
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeTruthy();
  });

  it('shows the offline page when the configuration still answers 403 after the cookies were cleared', async () => {
    setCookie('csrftoken=stale; path=/');
    const server = startApp(json({ error: 'forbidden', message: 'no' }, 403));
    await settle();
    expect(document.cookie).toBe('');
    expect(server.count(CONFIGURATION)).toBe(2);
    expect(screen.getByRole('heading', { name: 'You are offline' })).toBeTruthy();
  });

  it('uses the configured language and sets <html lang>', async () => {
    fakeFetch({ [CONFIGURATION]: json({ ...anonymousConfiguration, language: 'de' }) });
    // The German files arrive as chunks of their own; fake timers cannot hurry a module load.
    await loadLanguage('de');
    render(<App />);
    await settle();
    expect(document.documentElement.lang).toBe('de');
    expect(screen.getByRole('heading', { name: 'Anmelden' })).toBeTruthy();
    expect(screen.getByLabelText('Benutzername oder E-Mail')).toBeTruthy();
    await act(async () => {
      await applyLanguage('en');
    });
  });
});

describe('page selection (spec 2.1)', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('shows the 404 page for unknown routes, with its title', async () => {
    window.history.replaceState(null, '', '/nowhere/');
    startApp(anonymousConfiguration);
    expect(await screen.findByRole('heading', { name: 'Error 404' })).toBeTruthy();
    expect(screen.getByText('The page you are looking for cannot be found.')).toBeTruthy();
    expect(document.title).toBe('Page not found');
  });

  it('shows the sign-up-closed page, with the pre-login header and footer', async () => {
    window.history.replaceState(null, '', '/account/sign-up/');
    startApp({ ...anonymousConfiguration, contact_email: 'help@example.org' });
    expect(await screen.findByRole('heading', { name: 'Sign-up is closed' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Scriptorium' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Terms and Conditions' }).getAttribute('href')).toBe(
      '/pages/terms/',
    );
    expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('/pages/privacy/');
    for (const library of ['MathLive', 'citeproc-js', 'ProseMirror']) {
      expect(screen.getByRole('link', { name: library }).getAttribute('target')).toBe('_blank');
    }
    expect(screen.getByRole('link', { name: 'help@example.org' }).getAttribute('href')).toBe(
      'mailto:help@example.org',
    );
    expect(screen.getByRole('button', { name: /(^|\s)Language$/ })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(window.location.pathname).toBe('/');
    expect(await screen.findByLabelText('Username or e-mail')).toBeTruthy();
  });

  it('shows a flat page fetched by its address, and the 404 text when it cannot be loaded', async () => {
    window.history.replaceState(null, '', '/pages/terms/');
    const server = startApp(anonymousConfiguration, {
      [route(baseApi.flatpage)]: (request) =>
        request.body?.get('url') === '/terms/'
          ? json({
              title: 'Terms',
              content: '<p>Be <strong>kind</strong>.</p><script>window.hacked = 1</script>',
            })
          : json({ error: 'not_found', message: 'Not found' }, 404),
    });
    expect(await screen.findByRole('heading', { name: 'Terms' })).toBeTruthy();
    expect(screen.getByText('kind').tagName).toBe('STRONG');
    expect(document.querySelector('main script')).toBeNull();
    expect(document.title).toBe('Terms - Scriptorium');

    fireEvent.click(screen.getByRole('link', { name: 'Privacy policy' }));
    expect(await screen.findByRole('heading', { name: 'Error 404' })).toBeTruthy();
    expect(
      server.requests.filter((r) => r.url === baseApi.flatpage.path).map((r) => r.body?.get('url')),
    ).toEqual(['/terms/', '/privacy/']);
  });

  it('shows the feedback tab and the language selector to logged-in users', async () => {
    window.history.replaceState(null, '', '/nowhere/');
    startApp(userConfiguration());
    expect(await screen.findByRole('heading', { name: 'Error 404' })).toBeTruthy();
    expect(screen.getByRole('button', { name: FEEDBACK_TAB })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
    expect(screen.getByRole('button', { name: /(^|\s)Language$/ })).toBeTruthy();
  });

  it('shows screens that need no login to anonymous visitors', async () => {
    window.history.replaceState(null, '', '/account/sign-up');
    startApp(anonymousConfiguration);
    expect(await screen.findByRole('heading', { name: 'Sign-up is closed' })).toBeTruthy();
    expect(document.title).toBe('Sign up - Scriptorium');
    expect(screen.queryByLabelText('Username or e-mail')).toBeNull();
  });
});
