import 'fake-indexeddb/auto';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { schema } from '@scriptorium/common/editor/schema';
import { Transform } from 'prosemirror-transform';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, route } from '../app/testing/fake-fetch';
import { creationsOf, pendingEntries, queuesOf, writeQueue } from './document-queue';
import { createOfflineDocument, creationKey, isTemporaryId, syncCreations } from './offline-documents';

const OWNER = { id: 4, name: 'Ada Lovelace', username: 'ada' };

/** Types `text` into the first paragraph of the queued document, as the editor's queue would keep it. */
async function typeInto(username: string, documentId: number, text: string): Promise<void> {
  const [record] = await queuesOf(username, documentId);
  const doc = schema.nodeFromJSON(record.doc);
  let at = -1;
  doc.descendants((node, pos) => {
    if (at < 0 && node.type.name === 'paragraph') at = pos + 1;
    return at < 0;
  });
  const tr = new Transform(doc).insert(at, schema.text(text));
  await writeQueue({ ...record, steps: [...record.steps, ...tr.steps.map((step) => step.toJSON())] });
}

describe('documents created offline (issue 20)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('are listed with a temporary id, and created on the server once with what was written', async () => {
    const entry = await createOfflineDocument(OWNER, 'ada', '/trips/');
    expect(isTemporaryId(entry.id)).toBe(true);
    expect(entry).toMatchObject({
      title: '',
      path: '/trips/',
      owner: OWNER,
      is_owner: true,
      rights: 'write',
    });
    expect(await pendingEntries('ada')).toEqual([entry]);
    expect(await pendingEntries('bea')).toEqual([]);
    await typeInto('ada', entry.id, 'Notes from the archive');

    // The connection drops during the call: nothing is lost, nothing is marked as done.
    const failing = fakeFetch({ [route(documentsApi.create)]: new TypeError('Failed to fetch') });
    await expect(syncCreations('ada')).rejects.toThrow('Failed to fetch');
    expect(failing.count(route(documentsApi.create))).toBe(1);
    expect(await pendingEntries('ada')).toEqual([entry]);
    expect((await queuesOf('ada', entry.id))[0].steps).toHaveLength(1);

    // The retry carries the same key (the server answers the first document if it was made).
    const server = fakeFetch({ [route(documentsApi.create)]: json({ id: 31, path: '/trips/' }) });
    expect(await syncCreations('ada')).toEqual([{ tempId: entry.id, id: 31, path: '/trips/' }]);
    const body = server.requests[0].body;
    expect(body?.get('client_key')).toBe(creationKey(entry.id));
    expect(body?.get('path')).toBe('/trips/');
    const content = schema.nodeFromJSON(JSON.parse(body?.get('content') ?? 'null'));
    expect(content.textContent).toContain('Notes from the archive');

    // Done: the temporary document is gone, and a later sync sends nothing more.
    expect(await pendingEntries('ada')).toEqual([]);
    expect(await creationsOf('ada')).toEqual([]);
    expect(await queuesOf('ada', entry.id)).toEqual([]);
    expect(await syncCreations('ada')).toEqual([]);
    expect(server.count(route(documentsApi.create))).toBe(1);
  });
});
