import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import type { Image } from '@scriptorium/common/api/usermedia';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { CONFIGURATION, fakeFetch, json, route, userConfiguration } from '../../app/testing/fake-fetch';
import { App } from '../../root/app';
import { saveErrorMessage } from './usermedia-api';

const LIST = route(usermediaApi.images);
const SAVE_CATEGORY = route(usermediaApi.saveCategories);
const DELETE = route(usermediaApi.delete);

function image(id: number, title: string, cats: number[] = []): Image {
  return {
    id,
    title,
    file_type: 'image/png',
    width: 300,
    height: 200,
    size: 1234,
    added: Date.UTC(2026, 0, id),
    thumbnail: `/media/thumbnails/${'a'.repeat(63)}${id}.webp`,
    image: `/media/images/${'a'.repeat(63)}${id}.png`,
    cats,
    copyright: { holder: '', licence: '' },
  };
}

async function openImages(routes: Parameters<typeof fakeFetch>[0]) {
  const server = fakeFetch({ [CONFIGURATION]: json(userConfiguration()), ...routes });
  render(<App />);
  // The page is its own chunk: the first import in a test run takes a while.
  // The table is there at once with skeleton rows; the rows are in when it is no longer busy.
  await screen.findByRole('grid', { name: 'Images', busy: false }, { timeout: 10000 });
  return server;
}

function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

describe('image library page (spec 2.5)', { timeout: 30000 }, () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/usermedia/');
  });

  it('shows the empty message and the menu with its shortcuts', async () => {
    await openImages({ [LIST]: json({ images: [], imageCategories: [] }) });
    expect(screen.getByRole('grid', { name: 'Images' }).textContent).toContain('No images available');
    expect(screen.getByRole('button', { name: 'Upload new image' }).getAttribute('aria-keyshortcuts')).toBe(
      'Alt+U',
    );
    expect(screen.getByRole('button', { name: 'Edit categories' }).getAttribute('aria-keyshortcuts')).toBe(
      'Alt+E',
    );
    expect(screen.getByRole('button', { name: 'Category: All categories' })).not.toBeNull();
    expect(screen.getByRole('searchbox', { name: 'Search images' })).not.toBeNull();
  });

  it('lists images with title or Untitled, the upper-case subtype and the size in px', async () => {
    await openImages({ [LIST]: json({ images: [image(1, 'Map'), image(2, '')], imageCategories: [] }) });
    const grid = screen.getByRole('grid', { name: 'Images' });
    expect(within(grid).getByRole('button', { name: 'Edit Map' })).not.toBeNull();
    expect(within(grid).getByRole('button', { name: 'Edit Untitled' })).not.toBeNull();
    expect(within(grid).getAllByText('PNG')).toHaveLength(2);
    expect(within(grid).getAllByText('300 × 200')).toHaveLength(2);
    // Column 0 (the id) is never shown.
    expect(within(grid).queryByRole('columnheader', { name: 'id' })).toBeNull();
  });

  it('saves categories with trimmed titles and id 0 for new ones', async () => {
    const server = await openImages({
      [LIST]: json({ images: [], imageCategories: [{ id: 4, category_title: 'Maps' }] }),
      [SAVE_CATEGORY]: json({
        entries: [
          { id: 4, category_title: 'Charts' },
          { id: 9, category_title: 'New' },
        ],
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit categories' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit categories' });
    const boxes = within(dialog).getAllByRole('textbox');
    fireEvent.change(boxes[0], { target: { value: ' Charts ' } });
    fireEvent.change(boxes[1], { target: { value: '  New' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add category' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('The categories have been updated');
    const sent = server.requests.find((request) => `${request.method} ${request.url}` === SAVE_CATEGORY);
    expect(sent?.body?.getAll('ids[]')).toEqual(['4', '0']);
    expect(sent?.body?.getAll('titles[]')).toEqual(['Charts', 'New']);
  });

  it('reports a failed category save', async () => {
    await openImages({
      [LIST]: json({ images: [], imageCategories: [] }),
      [SAVE_CATEGORY]: json({ error: 'server_error', message: 'x' }, 500),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit categories' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit categories' });
    fireEvent.change(within(dialog).getAllByRole('textbox')[0], { target: { value: 'Maps' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Could not update categories');
  });

  it('deletes after confirmation and refreshes the list', async () => {
    const server = await openImages({
      [LIST]: [
        json({ images: [image(1, 'Map')], imageCategories: [] }),
        json({ images: [], imageCategories: [] }),
      ],
      [DELETE]: json({ ids: [1] }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Map' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm deletion' });
    expect(dialog.textContent).toContain('Do you really want to delete this image?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('The image(s) have been deleted');
    await waitFor(() =>
      expect(screen.getByRole('grid', { name: 'Images' }).textContent).toContain('No images available'),
    );
    expect(server.count(DELETE)).toBe(1);
  });

  it('shows the deletion error of the spec when the server refuses', async () => {
    await openImages({
      [LIST]: json({ images: [image(1, 'Map')], imageCategories: [] }),
      [DELETE]: json({ error: 'not_found', message: 'gone' }, 404),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Map' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm deletion' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('The image(s) could not be deleted');
  });

  it('disables upload and category editing offline and blocks deletion with an error', async () => {
    const server = await openImages({ [LIST]: json({ images: [image(1, 'Map')], imageCategories: [] }) });
    setOnline(false);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Upload new image' }) as HTMLButtonElement).disabled).toBe(
        true,
      ),
    );
    expect((screen.getByRole('button', { name: 'Edit categories' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete Map' }));
    await screen.findByText('You are currently offline. Please try again when you are back online.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.count(DELETE)).toBe(0);
    setOnline(true);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Upload new image' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
  });
});

describe('saveErrorMessage (spec 8, image save)', () => {
  const t = i18next.getFixedT('en', 'usermedia');

  it('gives the fixed text for 413, else the server message, else the status text', () => {
    expect(saveErrorMessage(new ApiError(413, 'Payload Too Large', null), t)).toBe(
      'Image is larger than the maximum permitted size',
    );
    expect(saveErrorMessage(new ApiError(400, 'Bad Request', { errormsg: { error: 'Nope.' } }), t)).toBe(
      'Nope.',
    );
    expect(
      saveErrorMessage(new ApiError(404, 'Not Found', { error: 'not_found', message: 'Missing.' }), t),
    ).toBe('Missing.');
    expect(saveErrorMessage(new ApiError(502, 'Bad Gateway', '<html>'), t)).toBe('Bad Gateway');
  });
});
