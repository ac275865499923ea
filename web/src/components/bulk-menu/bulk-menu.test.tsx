import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test-i18n';
import { BulkMenu } from './bulk-menu';

function setup(
  overrides: {
    allSelected?: boolean;
    someSelected?: boolean;
    nothingToSelect?: boolean;
    deleteDisabled?: boolean;
  } = {},
) {
  const onSelectAll = vi.fn();
  const onDelete = vi.fn();
  const onExport = vi.fn();
  renderWithI18n(
    <BulkMenu
      allSelected={overrides.allSelected ?? false}
      someSelected={overrides.someSelected}
      nothingToSelect={overrides.nothingToSelect}
      onSelectAll={onSelectAll}
      actions={[
        { label: 'Delete selected', onSelect: onDelete, disabled: overrides.deleteDisabled },
        { label: 'Export selected', onSelect: onExport },
      ]}
    />,
  );
  return { onSelectAll, onDelete, onExport };
}

describe('BulkMenu', () => {
  it('has a select-all checkbox reflecting and changing the selection', () => {
    const { onSelectAll } = setup();
    const box = screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    expect(onSelectAll).toHaveBeenCalledWith(true);
  });

  it('disables the checkbox while there is nothing to select (a list still loading or empty)', () => {
    setup({ nothingToSelect: true });
    expect((screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('shows a mixed checkbox when only some rows are selected', () => {
    setup({ someSelected: true });
    expect((screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement).indeterminate).toBe(
      true,
    );
  });

  it('opens a 280 px dropdown of actions and runs the one clicked', async () => {
    const { onExport } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for the selected entries' }));
    const menu = await screen.findByRole('menu');
    expect(menu.closest<HTMLElement>('.bulk-menu-popover')?.style.width).toBe('280px');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Export selected' }));
    expect(onExport).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('works from the keyboard: arrows move, Enter runs, Escape closes', async () => {
    const { onExport, onDelete } = setup();
    const trigger = screen.getByRole('button', { name: 'Actions for the selected entries' });
    act(() => trigger.focus());
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    await screen.findByRole('menu');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Delete selected'));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Export selected'));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    // react-aria gives focus back a frame after the menu closes.
    await waitFor(() => expect(document.activeElement).toBe(trigger));

    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    await screen.findByRole('menu');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Delete selected'));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Enter' });
    fireEvent.keyUp(document.activeElement ?? document.body, { key: 'Enter' });
    expect(onExport).toHaveBeenCalledTimes(1);
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('does not run a disabled action', async () => {
    const { onDelete } = setup({ deleteDisabled: true });
    fireEvent.click(screen.getByRole('button', { name: 'Actions for the selected entries' }));
    const item = await screen.findByRole('menuitem', { name: 'Delete selected' });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(item);
    expect(onDelete).not.toHaveBeenCalled();
  });
});
