import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { saveImageResponse } from '@scriptorium/common/api/usermedia';
import { schema } from '@scriptorium/common/editor/schema';
import { Transform } from 'prosemirror-transform';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useDocumentEditors } from './document-editors';
import { ENGINES, type TestClient, useServer } from './harness';

/**
 * Issue 17: the images a shared document's figures use are visible to its authors (the /media/
 * rule gains this case and only this one), on both engines.
 */
describe.each(ENGINES)('images of shared documents (%s)', (engine) => {
  const server = useServer(engine);
  const editors = useDocumentEditors(server);
  const person = editors.user;

  async function uploadImage(browser: TestClient, colour: string): Promise<{ id: number; image: string }> {
    const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
      .png()
      .toBuffer();
    const response = await browser.call(usermediaApi.save, {
      title: 'Plot',
      image: new File([new Uint8Array(bytes)], 'plot.png', { type: 'image/png' }),
    });
    expect(response.status, response.text).toBe(201);
    const values = saveImageResponse.parse(response.json()).values;
    if (!values) throw new Error(response.text);
    return values;
  }

  async function insertFigure(browser: TestClient, documentId: number, src: string) {
    const client = await editors.open(browser, documentId);
    const doc = client.state?.doc;
    if (!doc) throw new Error('no document');
    // After the last block of the body (the body is the last part of a new document).
    const end = doc.content.size - 1;
    const tr = new Transform(doc).insert(
      end,
      schema.nodes.figure.create({ id: 'F1', src, caption: 'A plot' }),
    );
    const answer = await client.sendRaw({
      v: client.docData?.doc.v ?? 0,
      ds: tr.steps.map((s) => s.toJSON()),
    });
    expect(answer.type, JSON.stringify(answer)).toBe('confirm_diff');
  }

  it('lets co-authors fetch the images a document uses, and nobody else, and not after deletion', async () => {
    const owner = await person();
    const coauthor = await person();
    const stranger = await person();
    const used = await uploadImage(owner.browser, '#aa3300');
    const unused = await uploadImage(owner.browser, '#0033aa');
    const documentId = await editors.createDocument(owner.browser, 'Shared');
    await editors.grant(documentId, coauthor.user.id, 'read');

    // Before any figure uses it, the co-author gets the same 404 as for a file that does not exist.
    expect((await coauthor.browser.get(used.image)).status).toBe(404);
    await insertFigure(owner.browser, documentId, used.image);

    const seen = await coauthor.browser.get(used.image);
    expect(seen.status).toBe(200);
    expect(seen.headers.get('content-type')).toBe('image/png');
    expect((await coauthor.browser.get(unused.image)).status).toBe(404);
    expect((await stranger.browser.get(used.image)).status).toBe(404);
    expect((await owner.browser.get(used.image)).status).toBe(200);

    // A co-author cannot reach an image of someone who is no author of the document by naming it.
    const other = await uploadImage(stranger.browser, '#00aa33');
    await insertFigure(owner.browser, documentId, other.image);
    expect((await coauthor.browser.get(other.image)).status).toBe(404);

    // Deleted from the owner's library: gone for everyone.
    const deleted = await owner.browser.call(usermediaApi.delete, { ids: [used.id] });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await coauthor.browser.get(used.image)).status).toBe(404);
  });

  it("does not show a former co-author the owner's image through a document of their own (issue 50)", async () => {
    const owner = await person();
    const former = await person();
    const reader = await person();
    const privateImage = await uploadImage(owner.browser, '#aa3300');
    const ownersDocument = await editors.createDocument(owner.browser, 'Shared once');
    await editors.grant(ownersDocument, former.user.id, 'write');
    await insertFigure(owner.browser, ownersDocument, privateImage.image);
    expect((await former.browser.get(privateImage.image)).status).toBe(200);
    await owner.browser.call(documentsApi.accessSave, { id: ownersDocument, access: [] });
    expect((await former.browser.get(privateImage.image)).status).toBe(404);

    // Their own document, shared with the owner (and a reader), its figure naming the owner's image.
    const theirs = await editors.createDocument(former.browser, 'Mine now');
    await editors.grant(theirs, owner.user.id, 'write');
    await editors.grant(theirs, reader.user.id, 'read');
    await insertFigure(former.browser, theirs, privateImage.image);
    expect((await former.browser.get(privateImage.image)).status).toBe(404);
    expect((await reader.browser.get(privateImage.image)).status).toBe(404);

    // A co-author's own image, put into the owner's document by that co-author, is seen by the owner.
    const coauthor = await person();
    await editors.grant(ownersDocument, coauthor.user.id, 'write');
    const contributed = await uploadImage(coauthor.browser, '#0033aa');
    await insertFigure(coauthor.browser, ownersDocument, contributed.image);
    expect((await owner.browser.get(contributed.image)).status).toBe(200);
    // And the owner's image, put into the former co-author's document by the owner, is seen there.
    await insertFigure(owner.browser, theirs, privateImage.image);
    expect((await reader.browser.get(privateImage.image)).status).toBe(200);
  });
});
