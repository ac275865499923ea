import { TITLE_MAX } from '@scriptorium/common/api/documents';
import { bibliographyApi } from '@scriptorium/common/api/endpoints/bibliography';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { importApi } from '@scriptorium/common/api/endpoints/imports';
import { schema } from '@scriptorium/common/editor/schema';
import { stepsOf } from '@scriptorium/common/editor/testing';
import { trackTransaction } from '@scriptorium/common/editor/track-changes';
import { exportNative, NATIVE_VERSION } from '@scriptorium/common/exchange/native';
import { EXPORT_FORMATS } from '@scriptorium/common/export/registry';
import { docDataMessage } from '@scriptorium/common/ws/document-messages';
import { strToU8, zipSync } from 'fflate';
import { EditorState } from 'prosemirror-state';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentContent } from '../src/modules/documents/collab/store';
import { runExportTask } from '../src/modules/documents/export/export-pool';
import { printerFor } from '../src/modules/documents/export/printer';
import { useDocumentEditors } from './document-editors';
import { ENGINES, type TestClient, useServer } from './harness';

/**
 * Issue 50, findings 1, 7, 8 and 9: every document the server stores and sends is one its own
 * schemas take (the doc_data contract and the ProseMirror schema), on both engines, and input it
 * cannot store is refused with a reason instead of a 500 or no answer at all.
 */

/** Position just inside the title node (the document's first child). */
const TITLE_START = 1;

function importFile(client: TestClient, bytes: Uint8Array, name: string) {
  return client.call(importApi.document, { path: '', file: new File([new Uint8Array(bytes)], name) });
}

/** A body part allowing what the imports below need, holding `content`. */
function bodyPart(content: unknown[]) {
  return {
    type: 'richtext_part',
    attrs: {
      id: 'body',
      title: 'Body',
      optional: false,
      hidden: false,
      elements: ['paragraph', 'figure', 'table'],
      marks: [],
    },
    content,
  };
}

function nativeDocument(title: string, parts: unknown[]) {
  return {
    type: 'doc',
    attrs: { template: 'standard-article', language: 'en-US', paper_size: 'A4', citationstyle: 'apa' },
    content: [{ type: 'title', content: [{ type: 'text', text: title }] }, ...parts],
  };
}

/** A figure showing the exported library image 31. */
const figure = {
  type: 'figure',
  attrs: { id: 'F1', category: 'figure', image: 31, src: '', caption: 'Map' },
};

describe.each(ENGINES)('document validity (%s)', (engine) => {
  const server = useServer(engine);
  const { user, createDocument, grant, open } = useDocumentEditors(server);

  // The first import starts the document worker, which loads its readers (seconds on a busy
  // machine), and the first export an export worker and the printer's browser: once here, so that
  // each test below times only its own imports and exports.
  beforeAll(async () => {
    const config = server().ctx.config;
    const exporting = Promise.all([
      runExportTask(config, { kind: 'bibtex', entries: [] }),
      printerFor(config).warm(),
    ]);
    const { browser } = await server().loggedInUser();
    const warm = exportNative({
      title: 'Warm',
      content: nativeDocument('Warm', [bodyPart([{ type: 'paragraph' }])]),
      bibliography: [],
      threads: [],
      images: [],
    });
    expect((await importFile(browser, warm, 'warm.zip')).status).toBe(201);
    await exporting;
  });

  it('refuses a title longer than doc_data allows, also as a suggestion, and later editors open the document', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Short');
    const writer = await user();
    const tracked = await user();
    await grant(id, writer.user.id, 'write');
    await grant(id, tracked.user.id, 'write-tracked');
    const writing = await open(writer.browser, id);
    const long = 'x'.repeat(TITLE_MAX);
    const direct = await writing.sendRaw({
      v: 0,
      ds: stepsOf(writing.state!.doc, (tr) => tr.insert(TITLE_START, schema.text(long))),
    });
    expect(direct).toEqual({ type: 'reject_diff', rid: direct.rid, reason: 'title_too_long' });

    const suggesting = await open(tracked.browser, id);
    const state = EditorState.create({ doc: suggesting.state!.doc });
    const suggestion = trackTransaction(state.tr.insertText(long, TITLE_START), state, {
      id: tracked.user.id,
      username: tracked.user.username,
    })!;
    const answer = await suggesting.sendRaw({ v: 0, ds: suggestion.steps.map((step) => step.toJSON()) });
    expect(answer).toEqual({ type: 'reject_diff', rid: answer.rid, reason: 'title_too_long' });

    // Up to the limit is fine, and what a new editor gets is a doc_data of the strict contract.
    const fits = await writing.sendRaw({
      v: 0,
      ds: stepsOf(writing.state!.doc, (tr) =>
        tr.insert(6, schema.text('y'.repeat(TITLE_MAX - 'Short'.length))),
      ),
    });
    expect(fits).toMatchObject({ type: 'confirm_diff', v: 1 });
    const later = await open(owner.browser, id);
    expect(docDataMessage.safeParse(later.docData).success).toBe(true);
    expect(later.docData!.doc.title).toBe(`Short${'y'.repeat(TITLE_MAX - 5)}`);
  });

  it('opens a stored document whose title is longer than the limit, and lets it be shortened', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Old');
    const long = 'z'.repeat(TITLE_MAX + 45);
    const first = await open(owner.browser, id);
    const doc = first.state!.doc;
    const content = doc.replace(
      1,
      doc.firstChild!.nodeSize - 1,
      schema.nodes.title.create(null, schema.text(long)).slice(0),
    );
    first.close();
    // Written before the server checked titles: the stored content holds the long title.
    await server()
      .ctx.db.updateTable('documents')
      .set({ content: JSON.stringify(content.toJSON()), content_version: 0, version: 0 })
      .where('id', '=', id)
      .execute();
    const editor = await open(owner.browser, id);
    expect(docDataMessage.safeParse(editor.docData).success).toBe(true);
    expect(editor.state!.doc.firstChild!.textContent).toBe(long);
    // A body edit leaves the long title as it was: taken; shortening it: taken.
    const shorter = await editor.sendRaw({
      v: 0,
      ds: stepsOf(editor.state!.doc, (tr) => tr.delete(1, 1 + 100)),
    });
    expect(shorter).toMatchObject({ type: 'confirm_diff', v: 1 });
  });

  it('refuses a diff with a NUL byte in the title with a reason, and keeps nothing of it', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Plain');
    const editor = await open(owner.browser, id);
    const answer = await editor.sendRaw({
      v: 0,
      ds: stepsOf(editor.state!.doc, (tr) => tr.insert(TITLE_START, schema.text('a\u0000b'))),
    });
    expect(answer).toEqual({ type: 'reject_diff', rid: answer.rid, reason: 'malformed' });
    const [row] = await server().rows('documents', { id });
    expect([row.version, row.title]).toEqual([0, 'Plain']);
  });

  it('exports a document never opened in the editor, in every format', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Never opened');
    for (const format of Object.keys(EXPORT_FORMATS)) {
      const response = await owner.browser.call(documentsApi.export, { id: String(id), format });
      expect(response.status, `${format}: ${response.text}`).toBe(200);
    }
    const stored = schema.nodeFromJSON(JSON.parse((await currentContent(server().ctx.db, id))!));
    stored.check();
    expect(stored.firstChild!.textContent).toBe('Never opened');
  });

  it('answers 404 to an export path id beyond a 32-bit column', async () => {
    const owner = await user();
    for (const id of ['2147483648', '9007199254740991']) {
      const response = await owner.browser.call(documentsApi.export, { id, format: 'html' });
      expect(response.status, response.text).toBe(404);
    }
  });

  it('answers 400 to deeply nested JSON in a JSON field', async () => {
    const owner = await user();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const response = await owner.browser.call(bibliographyApi.save, { is_new: 'true', bibs: deep });
    expect(response.status, response.text).toBe(400);
    expect(response.json()).toEqual({
      form: { errors: [], fields: { bibs: { errors: ['Enter a valid value.'] } } },
    });
  });

  it('refuses a native import nested 20,000 levels deep with a clear 400', async () => {
    const owner = await user();
    // Written as text: JSON.stringify itself cannot go this deep.
    const depth = 20_000;
    const body = JSON.stringify(bodyPart([{ type: 'paragraph' }])).replace(
      '[{"type":"paragraph"}]',
      `${'[{"type":"blockquote","content":'.repeat(depth)}[{"type":"paragraph"}]${'}]'.repeat(depth)}`,
    );
    const manifest = JSON.stringify({
      format: 'scriptorium-native',
      version: NATIVE_VERSION,
      title: 'Deep',
      content: nativeDocument('Deep', ['BODY']),
      bibliography: [],
      threads: [],
      images: [],
    }).replace('"BODY"', body);
    const file = zipSync({ 'scriptorium.json': strToU8(manifest) });
    const response = await importFile(owner.browser, file, 'deep.zip');
    expect(response.status, response.text).toBe(400);
    expect(response.json()).toEqual({
      code: 'too_deep',
      error: 'This file nests its content too deeply to be a document. Nothing was imported.',
    });
    expect(await server().rows('documents', { owner_id: owner.user.id })).toEqual([]);
  });

  it('keeps the text of an import whose image is refused: a placeholder names it, the document opens and exports', async () => {
    const owner = await user();
    const cell = (content: unknown[]) => ({ type: 'table_cell', content });
    const table = {
      type: 'table',
      content: [
        {
          type: 'table_row',
          content: [
            cell([figure]),
            cell([{ type: 'paragraph', content: [{ type: 'text', text: 'Kept text' }] }]),
          ],
        },
      ],
    };
    const file = exportNative({
      title: 'Lost image',
      content: nativeDocument('Lost image', [bodyPart([table])]),
      bibliography: [],
      threads: [],
      images: [{ key: '31', name: 'broken.png', bytes: new TextEncoder().encode('not an image at all') }],
    });
    const response = await importFile(owner.browser, file, 'lost.zip');
    expect(response.status, response.text).toBe(201);
    const answer = response.json<{ id: number; notes: unknown[] }>();
    expect(answer.notes).toEqual([{ code: 'image_unreadable', detail: 'broken.png', count: 1 }]);
    const [row] = await server().rows('documents', { id: answer.id });
    const stored = schema.nodeFromJSON(JSON.parse(row.content));
    stored.check();
    const cells: string[] = [];
    stored.descendants((node) => {
      if (node.type.name === 'table_cell') cells.push(node.textContent);
      return true;
    });
    expect(cells).toEqual(['[Image not imported: broken.png]', 'Kept text']);
    // The editor opens the imported text (not a fresh document), and an edit keeps it.
    const editor = await open(owner.browser, answer.id);
    expect(editor.state!.doc.eq(stored)).toBe(true);
    editor.edit((tr) => tr.insertText('New ', TITLE_START));
    await editor.settled();
    expect(await currentContent(server().ctx.db, answer.id)).toContain('Kept text');
    const exported = await owner.browser.call(documentsApi.export, { id: String(answer.id), format: 'html' });
    expect(exported.status, exported.text).toBe(200);
  });

  it('opens a document stored invalid before the checks with its text, and the first edit keeps it', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Broken import');
    const emptyCell = { type: 'table_cell' };
    const kept = {
      type: 'table_cell',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Kept text' }] }],
    };
    const broken = nativeDocument('Broken import', [
      bodyPart([{ type: 'table', content: [{ type: 'table_row', content: [emptyCell, kept] }] }]),
    ]);
    await server()
      .ctx.db.updateTable('documents')
      .set({ content: JSON.stringify(broken) })
      .where('id', '=', id)
      .execute();
    const exported = await owner.browser.call(documentsApi.export, { id: String(id), format: 'html' });
    expect(exported.status, exported.text).toBe(200);
    const editor = await open(owner.browser, id);
    expect(editor.state!.doc.textContent).toBe('Broken importKept text');
    editor.edit((tr) => tr.insertText('Mended ', TITLE_START));
    await editor.settled();
    const saved = schema.nodeFromJSON(JSON.parse((await currentContent(server().ctx.db, id))!));
    saved.check();
    expect(saved.textContent).toBe('Mended Broken importKept text');
  });

  it('refuses an import whose document is not one of the schema, and stores nothing', async () => {
    const owner = await user();
    const file = exportNative({
      title: 'Empty body',
      content: nativeDocument('Empty body', [bodyPart([])]),
      bibliography: [],
      threads: [],
      images: [],
    });
    const response = await importFile(owner.browser, file, 'empty.zip');
    expect(response.status, response.text).toBe(400);
    expect(response.json<{ code: string }>().code).toBe('corrupt');
    expect(await server().rows('documents', { owner_id: owner.user.id })).toEqual([]);
  });
});
