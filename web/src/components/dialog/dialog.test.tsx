import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test-i18n';
import { ConfirmDialog, Dialog } from './dialog';
import { ReturnFocusContext } from './focus-return';

function overlayOf(dialog: HTMLElement): HTMLElement {
  const overlay = dialog.closest<HTMLElement>('.dialog-overlay');
  if (!overlay) throw new Error('no overlay');
  return overlay;
}

function Opener({ nested = false }: { nested?: boolean }) {
  const [open, setOpen] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open it
      </button>
      {open ? (
        <Dialog
          title="Outer"
          onClose={() => setOpen(false)}
          width={350}
          height={250}
          buttons={
            <button type="button" onClick={() => setOpen(false)}>
              Done
            </button>
          }
        >
          <input aria-label="Name" />
          {nested ? (
            <button type="button" onClick={() => setInner(true)}>
              Deeper
            </button>
          ) : null}
          {inner ? (
            <Dialog title="Inner" onClose={() => setInner(false)}>
              inner body
            </Dialog>
          ) : null}
        </Dialog>
      ) : null}
    </>
  );
}

describe('Dialog', () => {
  it('is a modal named by its visible title, sized as asked (as a default, not a clip), on layer 100', () => {
    renderWithI18n(<Opener />);
    fireEvent.click(screen.getByText('Open it'));
    const dialog = screen.getByRole('dialog', { name: 'Outer' });
    expect(screen.getByRole('heading', { name: 'Outer' })).not.toBeNull();
    const modal = dialog.closest<HTMLElement>('.dialog-modal');
    expect(modal?.style.getPropertyValue('--dialog-width')).toBe('350px');
    expect(modal?.style.getPropertyValue('--dialog-height')).toBe('250px');
    expect(overlayOf(dialog).style.zIndex).toBe('100');
    expect(screen.getByRole('button', { name: 'Done' })).not.toBeNull();
  });

  it('closes with the close button and with Escape, returning focus to the opener', async () => {
    renderWithI18n(<Opener />);
    const opener = screen.getByText('Open it');
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Outer' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));

    fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));

    fireEvent.click(opener);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('gives the focus back to the opener as it closes, not a frame later (keys typed at once are kept)', async () => {
    renderWithI18n(<Opener />);
    const opener = screen.getByText('Open it');
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Outer' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    // No animation frame may run between the close and the check: react-aria's own restoring waits
    // for one, and a key typed in between would go to the page's body.
    const frame = vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    try {
      act(() => {
        fireEvent.click(screen.getByRole('button', { name: 'Done' }));
      });
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(document.activeElement).toBe(opener);
    } finally {
      frame.mockRestore();
    }
  });

  it('gives the focus to where ReturnFocusContext says as it closes, instead of the opener (the editor’s text)', async () => {
    const text = document.createElement('textarea');
    document.body.append(text);
    const returnFocus = vi.fn(() => text.focus());
    renderWithI18n(
      <ReturnFocusContext.Provider value={returnFocus}>
        <Opener />
      </ReturnFocusContext.Provider>,
    );
    const opener = screen.getByText('Open it');
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Outer' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    const frame = vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    try {
      act(() => {
        fireEvent.click(screen.getByRole('button', { name: 'Done' }));
      });
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(returnFocus).toHaveBeenCalledTimes(1);
      expect(document.activeElement).toBe(text);
    } finally {
      frame.mockRestore();
      text.remove();
    }
  });

  it('keeps Tab focus inside the dialog', async () => {
    renderWithI18n(<Opener />);
    fireEvent.click(screen.getByText('Open it'));
    const dialog = screen.getByRole('dialog', { name: 'Outer' });
    const done = screen.getByRole('button', { name: 'Done' });
    act(() => done.focus());
    // The last focusable element: Tab wraps around to the first one inside the dialog.
    fireEvent.keyDown(done, { key: 'Tab' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    expect(document.activeElement).not.toBe(done);
  });

  it('stacks each newly opened dialog one layer higher; Escape closes only the topmost', () => {
    renderWithI18n(<Opener nested />);
    fireEvent.click(screen.getByText('Open it'));
    fireEvent.click(screen.getByText('Deeper'));
    const inner = screen.getByRole('dialog', { name: 'Inner' });
    expect(overlayOf(inner).style.zIndex).toBe('101');
    fireEvent.keyDown(inner, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Inner' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Outer' })).not.toBeNull();
  });

  it('hands layer 100 out again once earlier dialogs have closed', () => {
    const first = renderWithI18n(
      <Dialog title="One" onClose={() => {}}>
        x
      </Dialog>,
    );
    first.unmount();
    renderWithI18n(
      <Dialog title="Two" onClose={() => {}}>
        y
      </Dialog>,
    );
    expect(overlayOf(screen.getByRole('dialog', { name: 'Two' })).style.zIndex).toBe('100');
  });
});

/** A confirm dialog "Delete" with spies for its callbacks (or the given ones). */
function renderConfirm(props: { title?: string; message?: string; onConfirm?: () => Promise<void> } = {}) {
  const onConfirm = vi.fn(props.onConfirm);
  const onClose = vi.fn();
  renderWithI18n(
    <ConfirmDialog
      title={props.title ?? 'Delete'}
      message={props.message ?? 'Sure?'}
      confirmLabel="Delete"
      onConfirm={onConfirm}
      onClose={onClose}
    />,
  );
  return { onConfirm, onClose };
}

describe('ConfirmDialog', () => {
  it('runs onConfirm and then closes', async () => {
    const { onConfirm, onClose } = renderConfirm({
      title: 'Delete image',
      message: "Delete the image 'x'?",
    });
    expect(screen.getByRole('dialog', { name: 'Delete image' }).textContent).toContain(
      "Delete the image 'x'?",
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('closes without confirming on Cancel', () => {
    const { onConfirm, onClose } = renderConfirm();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('stays open when onConfirm fails', async () => {
    const { onClose } = renderConfirm({ onConfirm: () => Promise.reject(new Error('offline')) });
    const confirm = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    fireEvent.click(confirm);
    await waitFor(() => expect(confirm.getAttribute('aria-disabled')).toBeNull());
    expect(onClose).not.toHaveBeenCalled();
  });
});
