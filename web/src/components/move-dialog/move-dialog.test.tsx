import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, route } from '../../app/testing/fake-fetch';
import { openDialogSize } from '../dialog/dialog-testing';
import { subscribeToasts, type ToastRequest } from '../toast/toast-emitter';
import { MOVE_DIALOG_SIZE, MoveDialog, type MoveDialogProps } from './move-dialog';

const MOVE = route(documentsApi.move);
let toasts: ToastRequest[] = [];
let unsubscribe: () => void = () => undefined;

beforeEach(() => {
  toasts = [];
  unsubscribe = subscribeToasts((toast) => toasts.push(toast));
});
afterEach(() => unsubscribe());

function open(props: Partial<MoveDialogProps> = {}) {
  const onClose = vi.fn();
  const onMoved = vi.fn();
  render(
    <MoveDialog
      files={[{ id: 1, title: 'Paper', path: '/thesis/' }]}
      folders={['/thesis/', '/archive/old/']}
      endpoint={documentsApi.move}
      errorMessage="Could not move the document"
      successMessage="The documents have been moved."
      untitled="Untitled"
      onClose={onClose}
      onMoved={onMoved}
      {...props}
    />,
  );
  return { onClose, onMoved, box: screen.getByLabelText('Path') as HTMLInputElement };
}

function sentPaths(requests: { body: URLSearchParams | null }[]) {
  return requests.map((request) => [request.body?.get('id'), request.body?.get('path')]);
}

describe('MoveDialog (spec 2.7 and 5)', () => {
  it('is 820 by 440 with a path box and a folder tree', () => {
    fakeFetch({});
    const { box } = open();
    expect(MOVE_DIALOG_SIZE).toEqual({ width: 820, height: 440 });
    expect(openDialogSize()).toEqual(['820px', '440px']);
    expect(box.value).toBe('/thesis/');
    expect(screen.getByRole('button', { name: 'archive' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'old' })).toBeTruthy();
  });

  it('does nothing when the path is unchanged', async () => {
    const fake = fakeFetch({});
    const { box, onClose } = open();
    fireEvent.change(box, { target: { value: 'thesis//Paper' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.requests).toEqual([]);
    expect(toasts).toEqual([]);
  });

  it('posts the cleaned path to the given URL and shows a success toast', async () => {
    const fake = fakeFetch({ [MOVE]: json({ done: true }) });
    const { box, onMoved } = open();
    fireEvent.click(screen.getByRole('button', { name: 'old' }));
    expect(box.value).toBe('/archive/old/');
    fireEvent.change(box, { target: { value: 'drafts//Paper' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(onMoved).toHaveBeenCalledWith([{ id: 1, path: '/drafts/' }]));
    expect(sentPaths(fake.requests)).toEqual([['1', '/drafts/']]);
    expect(toasts).toEqual([{ message: 'The documents have been moved.', kind: 'success' }]);
  });

  it('gives several files a trailing slash and names each failure with the file name', async () => {
    const fake = fakeFetch({
      [MOVE]: (request) =>
        request.body?.get('id') === '2'
          ? json({ error: 'not_found', message: 'x' }, 404)
          : json({ done: true }),
    });
    const { box, onMoved } = open({
      files: [
        { id: 1, title: 'Paper', path: '/thesis/' },
        { id: 2, title: '', path: '/thesis/' },
      ],
    });
    fireEvent.change(box, { target: { value: 'archive' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(onMoved).toHaveBeenCalled());
    expect(sentPaths(fake.requests).sort()).toEqual([
      ['1', '/archive/'],
      ['2', '/archive/'],
    ]);
    expect(toasts).toContainEqual({ message: 'Could not move the document: Untitled', kind: 'error' });
    expect(toasts).toContainEqual({ message: 'The documents have been moved.', kind: 'success' });
  });

  it('adds a folder under the selected one from the New folder button, once', () => {
    fakeFetch({});
    const { box } = open();
    fireEvent.click(screen.getByRole('button', { name: 'archive' }));
    for (let i = 0; i < 2; i++) {
      fireEvent.click(screen.getByRole('button', { name: 'New folder' }));
      fireEvent.change(screen.getByPlaceholderText('Folder name'), { target: { value: 'ne/w' } });
      fireEvent.click(screen.getByRole('button', { name: 'Create folder' }));
      fireEvent.click(screen.getByRole('button', { name: 'archive' }));
    }
    expect(screen.getAllByRole('button', { name: 'new' })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'new' }));
    expect(box.value).toBe('/archive/new/');
  });
});
