import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test-i18n';
import { showToast, ToastProvider, useToast } from './toast';

function regionText(role: 'status' | 'alert'): string {
  return screen.getByRole(role).textContent ?? '';
}

function Trigger() {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast.show('From a hook')}>
      go
    </button>
  );
}

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('appears after 1 ms, stays 4 s, fades out over 2 s and is then removed', () => {
    renderWithI18n(<ToastProvider />);
    act(() => showToast('Saved it', 'success'));
    expect(regionText('status')).not.toContain('Saved it');

    act(() => vi.advanceTimersByTime(1));
    const toast = screen.getByText('Saved it').closest('.toast');
    expect(toast).not.toBeNull();
    expect(toast?.classList.contains('toast-success')).toBe(true);
    expect(toast?.classList.contains('toast-fading')).toBe(false);

    act(() => vi.advanceTimersByTime(3999));
    expect(screen.getByText('Saved it').closest('.toast')?.classList.contains('toast-fading')).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('Saved it').closest('.toast')?.classList.contains('toast-fading')).toBe(true);

    act(() => vi.advanceTimersByTime(1999));
    expect(screen.queryByText('Saved it')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Saved it')).toBeNull();
  });

  it('puts errors in an alert region and everything else in a polite status region', () => {
    renderWithI18n(<ToastProvider />);
    act(() => {
      showToast('Could not obtain contacts list', 'error');
      showToast('Plain info');
    });
    act(() => vi.advanceTimersByTime(1));
    expect(regionText('alert')).toContain('Could not obtain contacts list');
    expect(regionText('status')).toContain('Plain info');
    expect(regionText('status')).not.toContain('Could not obtain');
    expect(screen.getByRole('status').getAttribute('aria-live')).toBe('polite');
    expect(screen.getByRole('alert').getAttribute('aria-live')).toBe('assertive');
  });

  it('keeps toasts raised before the provider mounts and shows them once it does', () => {
    showToast('Early bird', 'warning');
    renderWithI18n(<ToastProvider />);
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('Early bird').closest('.toast')?.classList.contains('toast-warning')).toBe(true);
  });

  it('offers show() through useToast and can be dismissed early', () => {
    renderWithI18n(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('go'));
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('From a hook').closest('.toast')?.classList.contains('toast-info')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('From a hook')).toBeNull();
  });
});

describe('toast close buttons', () => {
  it('work before their module has loaded (the first toast of a page); later toasts get the IconButton', async () => {
    vi.resetModules();
    const fresh = await import('./toast');
    renderWithI18n(<fresh.ToastProvider />);
    // The toast shows 1 ms after it was raised, synchronously here: before the module's import,
    // started when the toast was raised, can have settled.
    vi.useFakeTimers();
    act(() => fresh.showToast('First', 'info'));
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    const first = screen.getByRole('button', { name: 'Close' });
    // A plain button: react-aria marks the buttons it renders.
    expect(first.hasAttribute('data-rac')).toBe(false);
    expect(first.className).toBe('icon-button toast-close');
    fireEvent.click(first);
    expect(screen.queryByText('First')).toBeNull();

    await vi.dynamicImportSettled();
    act(() => fresh.showToast('Second', 'info'));
    const second = await screen.findByRole('button', { name: 'Close' });
    expect(second.hasAttribute('data-rac')).toBe(true);
    fireEvent.click(second);
    expect(screen.queryByText('Second')).toBeNull();
  });
});
