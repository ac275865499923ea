import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { FakeServer } from '@scriptorium/common/ws/fake-server';
import { DocumentConnection } from './document-connection';

/** For tests: a fake server and a connection of document 7 to it (not opened yet). */
export function fakeDocumentConnection(): { server: FakeServer; connection: DocumentConnection } {
  const server = new FakeServer();
  const connection = new DocumentConnection({
    documentId: 7,
    wsUrlBase: '/ws',
    plugins: () => [],
    createSocket: server.createSocket,
  });
  return { server, connection };
}

/**
 * Opens the connection and lets the server send doc_data of an empty standard article with
 * `fields`; `advance` moves the test's fake timers on.
 */
export async function openWithDocData(
  server: FakeServer,
  connection: DocumentConnection,
  fields: Record<string, unknown>,
  advance: (ms: number) => Promise<unknown>,
): Promise<void> {
  connection.open();
  await server.pass(100, advance);
  const transport = server.transports.get(server.last);
  if (!transport) throw new Error('no socket');
  transport.send(
    {
      type: 'doc_data',
      doc: { id: 7, v: 0, title: '', content: createDocument(schema, standardArticle).toJSON() },
      session_id: 'session-0001',
      participants: [],
      ...fields,
    },
    Date.now(),
  );
  await server.pass(20, advance);
}
