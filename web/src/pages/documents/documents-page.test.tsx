import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeFetch, json, route } from '../../app/testing/fake-fetch';
import { DocumentsPage } from './documents-page';
import { testDocument } from './test-documents';

const documents = [
  // Saved last: listed before the other top-level document (the newest first).
  testDocument(1, '', 'Top paper', { updated: Date.UTC(2025, 0, 3) }),
  testDocument(2, '/thesis/', 'Chapter'),
  testDocument(3, '/thesis/drafts/', ''),
  testDocument(4, '/', 'From Bob', {
    is_owner: false,
    rights: 'comment',
    owner: { id: 2, name: 'Bob Writer', username: 'bob' },
  }),
];

describe('DocumentsPage', () => {
  it('lists folders and documents of the path with owner and rights, and breadcrumbs', async () => {
    fakeFetch({ [route(documentsApi.list)]: json({ documents }) });
    render(<DocumentsPage path="/" />);
    const table = await screen.findByRole('grid', { name: 'Documents and folders', busy: false });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('.documents-name')?.textContent)).toEqual([
      'thesis',
      'Top paper',
      'From Bob',
    ]);
    expect(rows[0].textContent).toContain('2 documents');
    expect(rows[1].textContent).toContain('Me');
    expect(rows[1].textContent).toContain('Owner');
    expect(rows[2].textContent).toContain('Bob Writer');
    expect(rows[2].textContent).toContain('Comment');
    expect(within(rows[0]).getByRole('link').getAttribute('href')).toBe('/documents/thesis/');
    expect(within(rows[1]).getByRole('link').getAttribute('href')).toBe('/document/1');
    expect(screen.getByRole('navigation', { name: 'Folder path' }).textContent).toBe('All documents');
  });

  it("shows 'Untitled' for an empty title and the empty messages", async () => {
    fakeFetch({ [route(documentsApi.list)]: json({ documents }) });
    render(<DocumentsPage path="/thesis/drafts/" />);
    expect(await screen.findByRole('link', { name: 'Untitled' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Folder path' }).textContent).toBe(
      'All documentsthesisdrafts',
    );
  });

  it('says when there are no documents at all, or none in the folder', async () => {
    fakeFetch({ [route(documentsApi.list)]: json({ documents: [] }) });
    const { unmount } = render(<DocumentsPage path="/" />);
    expect(await screen.findByText('No documents available')).toBeTruthy();
    unmount();
    fakeFetch({ [route(documentsApi.list)]: json({ documents }) });
    render(<DocumentsPage path="/elsewhere/" />);
    expect(await screen.findByText('This folder is empty')).toBeTruthy();
  });

  it('deletes a row with the Delete key after confirmation, leaving shared ones', async () => {
    const fake = fakeFetch({
      [route(documentsApi.list)]: [json({ documents }), json({ documents: documents.slice(0, 3) })],
      [route(documentsApi.delete)]: json({ deleted: [], left: [4] }),
    });
    render(<DocumentsPage path="/" />);
    const link = await screen.findByRole('link', { name: 'From Bob' });
    const row = link.closest('tr') as HTMLTableRowElement;
    fireEvent.keyDown(row, { key: 'Delete' });
    const dialog = await screen.findByRole('dialog', { name: 'Delete documents' });
    expect(dialog.textContent).toContain('Do you really want to delete the selected document?');
    expect(dialog.textContent).toContain(
      'One of them is shared with you: it is only removed from your list.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fake.count(route(documentsApi.delete))).toBe(1));
    const sent = fake.requests.find((request) => request.url === documentsApi.delete.path);
    expect(sent?.body?.getAll('ids[]')).toEqual(['4']);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'From Bob' })).toBeNull());
  });

  it('creates a document in the current folder and opens it', async () => {
    const fake = fakeFetch({
      [route(documentsApi.list)]: json({ documents }),
      [route(documentsApi.create)]: json({ id: 9, path: '/thesis/' }),
    });
    render(<DocumentsPage path="/thesis/" />);
    await screen.findByRole('grid', { busy: false });
    fireEvent.click(screen.getByRole('button', { name: 'Create new document' }));
    await waitFor(() => expect(window.location.pathname).toBe('/document/thesis/9'));
    const sent = fake.requests.find((request) => request.url === documentsApi.create.path);
    expect(sent?.body?.get('path')).toBe('/thesis/');
  });
});
