import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test-i18n';
import { WaitOverlay } from './wait-overlay';

function PageWithSave({ busy, onKeyDown }: { busy: boolean; onKeyDown(): void }) {
  return (
    <>
      <button type="button" onKeyDown={onKeyDown}>
        Save
      </button>
      <WaitOverlay active={busy} />
    </>
  );
}

describe('WaitOverlay', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('renders nothing while inactive', () => {
    renderWithI18n(<WaitOverlay active={false} message="Saving" />);
    expect(document.querySelector('.wait-overlay')).toBeNull();
  });

  it('covers the page at once but shows its message only after 2 s', () => {
    renderWithI18n(<WaitOverlay active message="Importing the bibliography" />);
    expect(document.querySelector('.wait-overlay')).not.toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.getByRole('status').textContent).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toBe('Importing the bibliography');
  });

  it('falls back to a translated default message', () => {
    renderWithI18n(<WaitOverlay active />);
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByRole('status').textContent).toBe('Please wait…');
  });

  it('starts the 2 s over each time it becomes active', () => {
    const view = renderWithI18n(<WaitOverlay active message="Wait" />);
    act(() => vi.advanceTimersByTime(2000));
    view.rerender(<WaitOverlay active={false} message="Wait" />);
    view.rerender(<WaitOverlay active message="Wait" />);
    expect(screen.getByRole('status').textContent).toBe('');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByRole('status').textContent).toBe('Wait');
  });

  it('blocks keys for the page and gives focus back afterwards', () => {
    const onKeyDown = vi.fn();
    const view = renderWithI18n(<PageWithSave busy={false} onKeyDown={onKeyDown} />);
    const save = screen.getByRole('button', { name: 'Save' });
    save.focus();
    view.rerender(<PageWithSave busy onKeyDown={onKeyDown} />);
    expect(document.activeElement).toBe(document.querySelector('.wait-overlay'));
    fireEvent.keyDown(save, { key: 'Enter' });
    expect(onKeyDown).not.toHaveBeenCalled();

    view.rerender(<PageWithSave busy={false} onKeyDown={onKeyDown} />);
    expect(document.activeElement).toBe(save);
    fireEvent.keyDown(save, { key: 'Enter' });
    expect(onKeyDown).toHaveBeenCalledTimes(1);
  });
});
