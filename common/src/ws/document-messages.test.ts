import { describe, expect, it } from 'vitest';
import { TITLE_MAX } from '../api/documents';
import { abilities } from '../rules/document-abilities';
import { DOCUMENT_SERVER_APP_SCHEMAS, docDataMessage, receivedAbilities } from './document-messages';
import { parseFrame } from './messages';

/** A doc_data frame as the server sends it, with this title. */
function docDataFrame(title: string) {
  return {
    type: 'doc_data' as const,
    c: 1,
    s: 1,
    doc: { id: 7, v: 3, title, content: { type: 'doc' } },
    access_right: 'write',
    is_owner: true,
    abilities: abilities('write', { owner: true }),
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

  it('carries the abilities for the server; a client also reads a doc_data without them (an older server)', () => {
    const { abilities: _sent, ...older } = docDataFrame('T');
    expect(docDataMessage.safeParse(older).success).toBe(false);
    const read = parseFrame(JSON.stringify(older), 'server', DOCUMENT_SERVER_APP_SCHEMAS);
    expect(read.ok).toBe(true);
    expect(read.ok && 'abilities' in read.frame).toBe(false);
  });

  it('names abilities(right, {owner}) when a doc_data carries none, and the sent ones when it does', () => {
    const frame = docDataFrame('T');
    const sent = { ...abilities('read'), comment: true };
    expect(
      receivedAbilities({ ...frame, access_right: 'review', is_owner: false, abilities: undefined }),
    ).toEqual(abilities('review'));
    expect(
      receivedAbilities({ ...frame, access_right: 'write', is_owner: true, abilities: undefined }),
    ).toEqual(abilities('write', { owner: true }));
    expect(receivedAbilities({ ...frame, access_right: 'read', is_owner: false, abilities: sent })).toEqual(
      sent,
    );
  });
});
