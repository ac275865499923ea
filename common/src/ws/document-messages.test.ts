import { describe, expect, it } from 'vitest';
import { TITLE_MAX } from '../api/documents';
import { DOCUMENT_SERVER_APP_SCHEMAS, docDataMessage } from './document-messages';
import { parseFrame } from './messages';

/** A doc_data frame as the server sends it, with this title. */
function docDataFrame(title: string) {
  return {
    type: 'doc_data',
    c: 1,
    s: 1,
    doc: { id: 7, v: 3, title, content: { type: 'doc' } },
    access_right: 'write',
    is_owner: true,
    session_id: 'session-0001',
    participants: [],
  };
}

describe('doc_data', () => {
  it('is strict for the server and lenient for a client: a title over the limit still opens the document', () => {
    const long = 't'.repeat(TITLE_MAX + 1);
    expect(docDataMessage.safeParse(docDataFrame('t'.repeat(TITLE_MAX))).success).toBe(true);
    expect(docDataMessage.safeParse(docDataFrame(long)).success).toBe(false);
    const read = parseFrame(JSON.stringify(docDataFrame(long)), 'server', DOCUMENT_SERVER_APP_SCHEMAS);
    expect(read.ok && read.frame).toMatchObject({ type: 'doc_data', doc: { title: long } });
  });
});
