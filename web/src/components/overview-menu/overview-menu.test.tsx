import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog } from '../dialog/dialog';
import { renderWithI18n } from '../test-i18n';
import { OverviewMenu, type OverviewMenuItem } from './overview-menu';

function alt(code: string) {
  fireEvent.keyDown(document.body, { code, key: code.slice(-1).toLowerCase(), altKey: true });
}

function buildItems(overrides: { uploadDisabled?: boolean; search?: (value: string) => void } = {}) {
  const calls = {
    upload: vi.fn(),
    edit: vi.fn(),
    all: vi.fn(),
    cat1: vi.fn(),
    selectAll: vi.fn(),
    deleteSelected: vi.fn(),
  };
  const items: OverviewMenuItem[] = [
    {
      type: 'select-action',
      id: 'bulk',
      shortcut: 'a',
      allSelected: false,
      onSelectAll: calls.selectAll,
      actions: [{ label: 'Delete selected', onSelect: calls.deleteSelected }],
    },
    {
      type: 'dropdown',
      id: 'cats',
      title: 'Category',
      shortcut: 'c',
      selectedId: 'all',
      options: [
        { id: 'all', label: 'All categories', onSelect: calls.all },
        { id: '1', label: 'Figures', onSelect: calls.cat1 },
      ],
    },
    { type: 'text', id: 'edit', title: 'Edit categories', shortcut: 'e', onSelect: calls.edit },
    {
      type: 'text',
      id: 'upload',
      title: 'Upload new image',
      shortcut: 'u',
      onSelect: calls.upload,
      disabled: overrides.uploadDisabled,
    },
    {
      type: 'button',
      id: 'help',
      title: 'Help',
      icon: <span aria-hidden="true">?</span>,
      onSelect: () => {},
    },
    {
      type: 'search',
      id: 'search',
      title: 'Search images',
      shortcut: 's',
      value: '',
      onChange: overrides.search ?? (() => {}),
    },
  ];
  return { items, calls };
}

describe('OverviewMenu', () => {
  it('is a labelled toolbar holding every kind of item', () => {
    const { items, calls } = buildItems();
    renderWithI18n(<OverviewMenu items={items} />);
    const bar = screen.getByRole('toolbar', { name: 'Page menu' });
    expect(bar.textContent).toContain('Edit categories');
    expect(screen.getByRole('checkbox', { name: 'Select all' })).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Category: All categories' })).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Help' })).not.toBeNull();
    expect(screen.getByRole('searchbox', { name: 'Search images' })).not.toBeNull();
    const upload = screen.getByRole('button', { name: 'Upload new image' });
    expect(upload.getAttribute('aria-keyshortcuts')).toBe('Alt+U');
    fireEvent.click(upload);
    expect(calls.upload).toHaveBeenCalledTimes(1);
  });

  it('runs a text item on its Alt shortcut, by physical key, from anywhere on the page', () => {
    const { items, calls } = buildItems();
    renderWithI18n(<OverviewMenu items={items} />);
    alt('KeyU');
    expect(calls.upload).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document.body, { code: 'KeyU', key: 'u' });
    expect(calls.upload).toHaveBeenCalledTimes(1);
  });

  it('ignores the shortcut of a disabled item', () => {
    const { items, calls } = buildItems({ uploadDisabled: true });
    renderWithI18n(<OverviewMenu items={items} />);
    alt('KeyU');
    expect(calls.upload).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Upload new image' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('opens a filter dropdown on its shortcut and reports the chosen option', async () => {
    const { items, calls } = buildItems();
    renderWithI18n(<OverviewMenu items={items} />);
    act(() => alt('KeyC'));
    const menu = await screen.findByRole('menu', { name: 'Category: All categories' });
    const all = screen.getByRole('menuitemradio', { name: 'All categories' });
    expect(all.getAttribute('aria-checked')).toBe('true');
    expect(menu.contains(document.activeElement)).toBe(true);
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Figures' }));
    expect(calls.cat1).toHaveBeenCalledTimes(1);
    expect(calls.all).not.toHaveBeenCalled();
  });

  it('runs an action dropdown item', async () => {
    const run = vi.fn();
    renderWithI18n(
      <OverviewMenu
        items={[
          {
            type: 'dropdown',
            id: 'new',
            title: 'Create new',
            options: [{ id: 'doc', label: 'Document', onSelect: run }],
          },
        ]}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create new' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Document' }));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('opens the bulk menu on its shortcut', async () => {
    const { items, calls } = buildItems();
    renderWithI18n(<OverviewMenu items={items} />);
    act(() => alt('KeyA'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete selected' }));
    expect(calls.deleteSelected).toHaveBeenCalledTimes(1);
  });

  it('focuses the search box on its shortcut', () => {
    const search = vi.fn();
    const { items } = buildItems({ search });
    renderWithI18n(<OverviewMenu items={items} />);
    alt('KeyS');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search images' }));
  });

  it('moves along the bar with the arrow keys, but not out of the search box', () => {
    const { items } = buildItems();
    renderWithI18n(<OverviewMenu items={items} />);
    const edit = screen.getByRole('button', { name: 'Edit categories' });
    act(() => edit.focus());
    fireEvent.keyDown(edit, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Upload new image' }));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Category: All categories' }));
    const box = screen.getByRole('searchbox');
    act(() => box.focus());
    fireEvent.keyDown(box, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(box);
  });

  it('keeps its shortcuts quiet while a dialog is open', () => {
    const { items, calls } = buildItems();
    const view = renderWithI18n(<OverviewMenu items={items} />);
    view.rerender(
      <>
        <OverviewMenu items={items} />
        <Dialog title="Upload" onClose={() => {}}>
          body
        </Dialog>
      </>,
    );
    alt('KeyU');
    expect(calls.upload).not.toHaveBeenCalled();
  });

  it('stops listening when unmounted', async () => {
    const { items, calls } = buildItems();
    const view = renderWithI18n(<OverviewMenu items={items} />);
    view.unmount();
    alt('KeyU');
    await waitFor(() => expect(calls.upload).not.toHaveBeenCalled());
  });
});
