// @vitest-environment jsdom
import { abilities, type DocumentAbilities } from '@scriptorium/common/rules/document-abilities';
import type { FakeServer } from '@scriptorium/common/ws/fake-server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentConnection } from './document-connection';
import { fakeDocumentConnection, openWithDocData } from './fake-document-connection';

// The editor reads what its user may do from doc_data (the server's capability model); a server
// older than the page sends no abilities, and the page then asks the model for the right it sent.

let server: FakeServer;
let connection: DocumentConnection;

/** A new fake server and a connection of document 7 to it (not opened yet). */
function connect(): void {
  ({ server, connection } = fakeDocumentConnection());
}

beforeEach(() => {
  vi.useFakeTimers();
  connect();
});

afterEach(() => {
  connection.close();
  vi.useRealTimers();
});

/** Opens the connection and lets the server send doc_data with these fields. */
async function receiveDocData(fields: Record<string, unknown>): Promise<void> {
  await openWithDocData(server, connection, fields, (ms) => vi.advanceTimersByTimeAsync(ms));
  expect(connection.load).toBe('ready');
}

describe('DocumentConnection: what its user may do', () => {
  it('takes the abilities doc_data carries, not a recomputation from the right', async () => {
    // A server whose model says more than the right alone: the editor follows the server.
    const sent: DocumentAbilities = { ...abilities('write-tracked'), editFreely: true, suggestOnly: false };
    await receiveDocData({ access_right: 'write-tracked', is_owner: false, abilities: sent });
    expect(connection.abilities).toEqual(sent);
    expect(connection.canWrite).toBe(true);
    expect(connection.mustSuggest).toBe(false);
    expect(connection.canComment).toBe(true);
  });

  it('reads a read-only doc_data as read-only', async () => {
    await receiveDocData({ access_right: 'read', is_owner: false, abilities: abilities('read') });
    expect(connection.canWrite).toBe(false);
    expect(connection.canComment).toBe(false);
    expect(connection.abilities.seeComments).toBe(true);
  });

  it('falls back to abilities(right, {owner}) when doc_data has none (a server older than the page)', async () => {
    await receiveDocData({ access_right: 'review', is_owner: false });
    expect(connection.abilities).toEqual(abilities('review'));
    expect(connection.mustSuggest).toBe(true);
    connection.close();

    connect();
    await receiveDocData({ access_right: 'write', is_owner: true });
    expect(connection.abilities).toEqual(abilities('write', { owner: true }));
    expect(connection.abilities.manage).toBe(true);
  });
});
