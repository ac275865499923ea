import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test-i18n';
import { ToastProvider } from '../toast/toast';
import { CategoriesDialog, type CategoryChanges } from './categories-dialog';

const TEXTS = {
  title: 'Edit categories',
  categoryTitle: 'Category title',
  newCategory: 'New category',
  addCategory: 'Add category',
  removeCategory: (title: string) => `Remove ${title}`,
  save: 'Save',
  updated: 'Updated',
  notUpdated: 'Not updated',
  offline: 'Offline',
};

function open(onSave: (changes: CategoryChanges) => Promise<void>, onClose = vi.fn()) {
  renderWithI18n(
    <ToastProvider>
      <CategoriesDialog
        categories={[
          { id: 4, category_title: 'Maps' },
          { id: 7, category_title: 'Plots' },
        ]}
        online
        texts={TEXTS}
        onSave={onSave}
        onClose={onClose}
      />
    </ToastProvider>,
  );
  return within(screen.getByRole('dialog', { name: 'Edit categories' }));
}

describe('categories editor (images and bibliography)', () => {
  it('keeps an empty row at the end, trims titles, drops empty ones and names the removed ids', async () => {
    const onSave = vi.fn(async (_changes: CategoryChanges) => undefined);
    const onClose = vi.fn();
    const dialog = open(onSave, onClose);
    expect(dialog.getAllByRole('textbox', { name: 'New category' })).toHaveLength(1);
    fireEvent.change(dialog.getByRole('textbox', { name: 'New category' }), {
      target: { value: ' Charts ' },
    });
    // Typing into the last row opened a fresh one.
    expect(dialog.getAllByRole('textbox', { name: 'New category' })).toHaveLength(2);
    fireEvent.click(dialog.getByRole('button', { name: 'Add category' }));
    expect(dialog.getAllByRole('textbox', { name: 'New category' })).toHaveLength(3);
    fireEvent.click(dialog.getByRole('button', { name: 'Remove Plots' }));
    fireEvent.change(dialog.getAllByRole('textbox', { name: 'Category title' })[0], {
      target: { value: 'Maps 2' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSave).toHaveBeenCalledWith({
      edits: [
        { id: 4, title: 'Maps 2' },
        { id: 0, title: 'Charts' },
      ],
      removed: [7],
    });
    expect(await screen.findByText('Updated')).toBeTruthy();
  });

  it('stays open and says so when saving fails', async () => {
    const onClose = vi.fn();
    const dialog = open(() => Promise.reject(new Error('500')), onClose);
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Not updated')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(dialog.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
  });
});
