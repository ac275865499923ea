import componentsDe from '@scriptorium/common/i18n/locales/de/components.json';
import wsDe from '@scriptorium/common/i18n/locales/de/ws.json';
import componentsEn from '@scriptorium/common/i18n/locales/en/components.json';
import wsEn from '@scriptorium/common/i18n/locales/en/ws.json';
import { FakeServer } from '@scriptorium/common/ws/fake-server';
import { act, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveConnection, useLiveConnection } from './live-connection';

function createI18n(language: 'en' | 'de') {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    ns: ['ws', 'components'],
    defaultNS: 'ws',
    resources: {
      en: { ws: wsEn, components: componentsEn },
      de: { ws: wsDe, components: componentsDe },
    },
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return instance;
}

let server: FakeServer;

/** A stand-in for a feature that sends over the app-wide connection. */
function Sender() {
  const connector = useLiveConnection();
  return (
    <button
      type="button"
      disabled={!connector}
      onClick={() => connector?.send({ type: 'note', text: 'draft' })}
    >
      Send note
    </button>
  );
}

function renderLive(language: 'en' | 'de' = 'en', onAccessDenied?: () => void) {
  return render(
    <I18nextProvider i18n={createI18n(language)}>
      <LiveConnection wsUrlBase="/ws" createSocket={server.createSocket} onAccessDenied={onAccessDenied}>
        <Sender />
      </LiveConnection>
    </I18nextProvider>,
  );
}

/** Lets (fake) time pass while the server keeps answering. */
async function advance(ms: number): Promise<void> {
  await act(() => server.pass(ms, (time) => vi.advanceTimersByTimeAsync(time)));
}

beforeEach(() => {
  vi.useFakeTimers();
  server = new FakeServer();
});

afterEach(() => {
  vi.useRealTimers();
});

const status = () => screen.getByRole('status', { name: 'Connection to the server' });

describe('LiveConnection', () => {
  it('opens one socket to ws_url_base/base/ and shows nothing while connected', async () => {
    renderLive();
    await advance(100);
    expect(server.sockets).toHaveLength(1);
    expect(server.last.url).toBe(`ws://${window.location.host}/ws/base/`);
    expect(status().textContent).toBe('');
  });

  it('says it is reconnecting while the connection is lost', async () => {
    renderLive();
    await advance(100);
    act(() => server.cut());
    expect(status().textContent).toBe('Disconnected. Attempting to reconnect...');
    await advance(2100);
    expect(status().textContent).toBe('');
  });

  it('warns that data is unsaved while unsent messages wait', async () => {
    renderLive();
    await advance(100);
    act(() => server.cut());
    fireEvent.click(screen.getByRole('button', { name: 'Send note' }));
    expect(status().textContent).toBe('Warning! Some data is unsaved');
    // Leaving the page now asks first.
    const leaving = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leaving);
    expect(leaving.defaultPrevented).toBe(true);
    await advance(2100);
    expect(server.received.map((message) => message.text)).toEqual(['draft']);
    expect(status().textContent).toBe('');
    const later = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
  });

  it('shows system messages in a dialog, one after the other', async () => {
    renderLive();
    await advance(100);
    act(() => {
      server.broadcast('The server restarts at 18:00.');
      server.broadcast('Please save your work.');
    });
    await advance(0);
    const dialog = screen.getByRole('dialog', { name: 'System message' });
    expect(dialog.textContent).toContain('The server restarts at 18:00.');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('dialog', { name: 'System message' }).textContent).toContain(
      'Please save your work.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('runs the failed-auth handler on access_denied', async () => {
    const onAccessDenied = vi.fn();
    renderLive('en', onAccessDenied);
    await advance(0);
    act(() => server.send(server.last, { type: 'access_denied', c: 0, s: 0 }));
    expect(onAccessDenied).toHaveBeenCalledTimes(1);
  });

  it('goes to / on access_denied by default', async () => {
    const assign = vi.fn();
    const original = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, assign } });
    try {
      renderLive();
      await advance(0);
      act(() => server.send(server.last, { type: 'access_denied', c: 0, s: 0 }));
      expect(assign).toHaveBeenCalledWith('/');
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    }
  });

  it('closes its socket when unmounted', async () => {
    const view = renderLive();
    await advance(100);
    view.unmount();
    expect(server.last.closedByClient).toBe(true);
    await advance(5000);
    expect(server.sockets).toHaveLength(1);
  });

  it('speaks the user language', async () => {
    renderLive('de');
    await advance(100);
    act(() => server.cut());
    expect(screen.getByRole('status', { name: 'Verbindung zum Server' }).textContent).toBe(
      'Verbindung getrennt. Es wird versucht, die Verbindung wiederherzustellen...',
    );
    act(() => server.broadcast('Wartung'));
    await advance(2100);
    expect(screen.getByRole('dialog', { name: 'Systemnachricht' }).textContent).toContain('Wartung');
  });
});
