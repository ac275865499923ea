import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, route } from '../../app/testing/fake-fetch';
import { setLocalUser } from '../../offline/local-user';
import { fetchDocuments } from './documents-api';
import { testDocument } from './test-documents';

// The read of the documents made offline, held until the test lets it answer.
let answerPending: (entries: DocumentEntry[]) => void = () => {};
vi.mock('../../offline/document-queue', () => ({
  pendingEntries: () =>
    new Promise<DocumentEntry[]>((resolve) => {
      answerPending = resolve;
    }),
}));

afterEach(() => setLocalUser(null));

describe('fetchDocuments', () => {
  it('asks the server for the list before the local database has answered', async () => {
    setLocalUser('ada');
    const server = fakeFetch({
      [route(documentsApi.list)]: json({ documents: [testDocument(1, '/', 'Paper')] }),
    });
    const rows = fetchDocuments();
    await vi.waitFor(() =>
      expect(server.requests.map((request) => request.url)).toContain(documentsApi.list.path),
    );
    answerPending([]);
    expect((await rows).map((row) => row.title)).toEqual(['Paper']);
  });
});
