import type { AccessRight } from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import type { DocumentServerMessage } from '@scriptorium/common/ws/document-messages';
import { afterEach, expect } from 'vitest';
import { DocumentClient } from '../src/ws/document-client';
import type { TestClient, TestServer, TestUser } from './harness';
import { shareDocument } from './seed';
import { cookieHeader, wsUrlBase } from './ws-support';

/**
 * People, documents and open editors for the tests of ws_url_base/document/<id>/. Call it in a
 * describe after useServer; the editors a test opens are closed after that test.
 */
export function useDocumentEditors(server: () => TestServer) {
  const clients: DocumentClient[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  return {
    /** A new user, logged in. */
    user(): Promise<{ user: TestUser; browser: TestClient }> {
      return server().loggedInUser();
    },

    /** A new document of the browser's user, created through the API; its id. */
    async createDocument(owner: TestClient, title = ''): Promise<number> {
      const response = await owner.call(documentsApi.create, { title });
      expect(response.status, response.text).toBe(200);
      return response.json<{ id: number }>().id;
    },

    /** Gives a user a right on a document (straight in the database). */
    grant(documentId: number, userId: number, rights: AccessRight): Promise<void> {
      return shareDocument(server().ctx.db, documentId, { userId }, rights);
    },

    /**
     * An editor of the document, connected as the browser's user; with `until`, once a message
     * it matches has come as well (e.g. the review's `threads`).
     */
    async open(
      browser: TestClient,
      documentId: number,
      until?: (message: DocumentServerMessage) => boolean,
    ): Promise<DocumentClient> {
      const client = new DocumentClient({
        wsUrlBase: wsUrlBase(server().baseUrl),
        documentId,
        headers: { cookie: cookieHeader(browser), origin: server().baseUrl },
      });
      clients.push(client);
      const awaited = until ? client.next(until) : null;
      await client.open();
      await awaited;
      return client;
    },
  };
}
