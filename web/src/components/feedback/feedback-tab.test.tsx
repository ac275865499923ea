import { feedbackApi } from '@scriptorium/common/api/endpoints/base';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test-i18n';
import { ToastProvider } from '../toast/toast';
import { FeedbackTab } from './feedback-tab';

interface Call {
  url: string;
  method: string;
  body: string;
}

function stubFetch(status: number): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET', body: String(init.body) });
    return new Response(status === 200 ? '{"ok":true}' : '{"error":"x","message":"x"}', { status });
  });
  return calls;
}

function setup() {
  renderWithI18n(
    <ToastProvider>
      <FeedbackTab />
    </ToastProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Technical support feedback' }));
  return screen.getByRole('textbox', { name: 'Your message' }) as HTMLTextAreaElement;
}

describe('FeedbackTab', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens a panel with a message box and focuses it', () => {
    stubFetch(200);
    const text = setup();
    expect(screen.getByRole('dialog', { name: 'Technical support feedback' })).not.toBeNull();
    expect(document.activeElement).toBe(text);
    expect(
      screen.getByRole('button', { name: 'Technical support feedback' }).getAttribute('aria-expanded'),
    ).toBe('true');
  });

  it('does not send an empty or whitespace-only message', () => {
    const calls = stubFetch(200);
    const text = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    fireEvent.change(text, { target: { value: '  \n\t ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(calls).toEqual([]);
    expect(screen.getByRole('dialog')).not.toBeNull();
  });

  it('posts the message, thanks the user with a toast and closes the panel', async () => {
    const calls = stubFetch(200);
    const text = setup();
    fireEvent.change(text, { target: { value: 'The export hangs' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toContain('Thank you for your report!'),
    );
    expect(calls).toEqual([{ url: feedbackApi.send.path, method: 'POST', body: 'message=The+export+hangs' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Technical support feedback' }));
  });

  it('shows an error in the panel on failure and keeps the text', async () => {
    stubFetch(500);
    const text = setup();
    fireEvent.change(text, { target: { value: 'Keep me' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(screen.getByRole('dialog').textContent).toContain(
        'Your report could not be sent. Please try again.',
      ),
    );
    expect((screen.getByRole('textbox', { name: 'Your message' }) as HTMLTextAreaElement).value).toBe(
      'Keep me',
    );
    expect(screen.getByRole('status').textContent).not.toContain('Thank you');
  });

  it('closes with Escape', () => {
    stubFetch(200);
    const text = setup();
    fireEvent.keyDown(text, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
