import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { openDialogSize } from '../dialog/dialog-testing';
import { NEW_FOLDER_DIALOG_SIZE, NewFolderDialog } from './new-folder-dialog';

function open() {
  const onCreate = vi.fn();
  const onClose = vi.fn();
  render(<NewFolderDialog onCreate={onCreate} onClose={onClose} />);
  return { onCreate, onClose, box: screen.getByPlaceholderText('Folder name') };
}

describe('NewFolderDialog (spec 2.7 and 5)', () => {
  it('is 400 by 150', () => {
    open();
    expect(NEW_FOLDER_DIALOG_SIZE).toEqual({ width: 400, height: 150 });
    expect(openDialogSize()).toEqual(['400px', '150px']);
  });

  it('ignores an empty name', () => {
    const { onCreate, onClose } = open();
    fireEvent.click(screen.getByRole('button', { name: 'Create folder' }));
    expect(onCreate).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });

  it('strips slashes', () => {
    const { onCreate, box } = open();
    fireEvent.change(box, { target: { value: '/chap/ter/' } });
    fireEvent.submit(box);
    expect(onCreate).toHaveBeenCalledWith('chapter');
  });
});
