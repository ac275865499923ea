import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import { schema } from '@scriptorium/common/editor/schema';
import { checkDocument } from '@scriptorium/common/editor/templates';
import { BUILTIN_TEMPLATES } from '@scriptorium/common/plugins/builtin-templates';
import { summaryPart } from '@scriptorium/common/plugins/template-testing';
import { standardDefinition, type TemplateDefinition } from '@scriptorium/common/plugins/templates-api';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ENGINES, type TestClient, useServer } from './harness';

/** A collected volume's chapter: a custom part "Summary" that allows paragraphs and emphasis only. */
function chapterDefinition(): TemplateDefinition {
  const standard = standardDefinition();
  return {
    ...standard,
    parts: [standard.parts[1], summaryPart('This chapter argues'), standard.parts[4]],
    citation_styles: ['apa'],
    languages: ['de-DE'],
  };
}

async function createTemplate(browser: TestClient, title: string, definition?: TemplateDefinition) {
  const response = await browser.call(templatesApi.create, definition ? { title, definition } : { title });
  expect(response.status, response.text).toBe(200);
  return response.json<{ id: number }>().id;
}

async function storedContent(server: ReturnType<ReturnType<typeof useServer>>, id: number) {
  const row = await server.ctx.db
    .selectFrom('documents')
    .select('content')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return schema.nodeFromJSON(JSON.parse(row.content));
}

describe.each(ENGINES)('Templates plugin API (%s)', (engine) => {
  const server = useServer(engine, { env: { PLUGINS: 'templates' } });

  it('creates a template as a copy of the Standard article, lists, saves, copies and deletes it', async () => {
    const owner = await server().buildUser();
    const browser = await server().loginAs(owner);
    const id = await createTemplate(browser, '');
    const got = (await browser.call(templatesApi.get, { id })).json<{
      template: { title: string; definition: TemplateDefinition };
    }>();
    expect(got.template.title).toBe('Standard article');
    expect(got.template.definition).toEqual(standardDefinition());

    const saved = await browser.call(templatesApi.save, {
      id,
      title: 'Chapter',
      definition: chapterDefinition(),
    });
    expect(saved.status, saved.text).toBe(200);
    const copy = (await browser.call(templatesApi.copy, { id })).json<{ id: number }>().id;
    const list = (await browser.call(templatesApi.list)).json<{
      templates: { id: number; title: string; is_owner: boolean; site: boolean }[];
    }>();
    expect(list.templates.map((t) => [t.id, t.title, t.is_owner, t.site])).toEqual([
      [copy, 'Chapter', true, false],
      [id, 'Chapter', true, false],
    ]);
    const copied = (await browser.call(templatesApi.get, { id: copy })).json<{
      template: { definition: TemplateDefinition };
    }>();
    expect(copied.template.definition).toEqual(chapterDefinition());

    expect((await browser.call(templatesApi.delete, { ids: [id] })).json()).toEqual({ deleted: [id] });
    expect((await browser.call(templatesApi.get, { id })).status).toBe(404);
  });

  it('refuses a definition with two parts of one id and keeps the template', async () => {
    const browser = await server().loginAs(await server().buildUser());
    const id = await createTemplate(browser, 'Mine');
    const definition = chapterDefinition();
    definition.parts[2] = { ...definition.parts[2], id: 'summary' };
    const response = await browser.call(templatesApi.save, { id, title: 'Broken', definition });
    expect(response.status).toBe(400);
    const got = (await browser.call(templatesApi.get, { id })).json<{ template: { title: string } }>();
    expect(got.template.title).toBe('Mine');
  });

  it("keeps other users' templates out of reach (404) and lets only the owner change a site template", async () => {
    const owner = await server().buildUser();
    const staff = await server().buildUser({ isStaff: true });
    const other = await server().loginAs(await server().buildUser());
    const own = await createTemplate(await server().loginAs(owner), 'Private');
    for (const [target, input] of [
      [templatesApi.get, { id: own }],
      [templatesApi.copy, { id: own }],
      [templatesApi.save, { id: own, title: 'x', definition: standardDefinition() }],
      [templatesApi.delete, { ids: [own] }],
      [templatesApi.createDocument, { template: String(own) }],
    ] as const) {
      expect((await other.call(target, input)).status, target.path).toBe(404);
    }

    const staffBrowser = await server().loginAs(staff);
    const site = await createTemplate(staffBrowser, 'Journal article');
    await staffBrowser.call(templatesApi.save, {
      id: site,
      title: 'Journal article',
      definition: standardDefinition(),
      site: 'true',
    });
    const listed = (await other.call(templatesApi.list)).json<{
      templates: { id: number; site: boolean; is_owner: boolean }[];
    }>();
    expect(listed.templates).toEqual([expect.objectContaining({ id: site, site: true, is_owner: false })]);
    expect(
      (await other.call(templatesApi.save, { id: site, title: 'Mine now', definition: standardDefinition() }))
        .status,
    ).toBe(403);
    expect((await other.call(templatesApi.delete, { ids: [site] })).status).toBe(403);
    expect((await other.call(templatesApi.copy, { id: site })).status).toBe(200);
  });

  it('makes a document that keeps its copy of the structure when the template changes and is deleted', async () => {
    const owner = await server().buildUser();
    const browser = await server().loginAs(owner);
    const id = await createTemplate(browser, 'Chapter', chapterDefinition());
    const created = await browser.call(templatesApi.createDocument, {
      template: String(id),
      path: '/volume/',
    });
    expect(created.status, created.text).toBe(200);
    const { id: documentId, path: docPath } = created.json<{ id: number; path: string }>();
    expect(docPath).toBe('/volume/');

    const before = await storedContent(server(), documentId);
    expect(before.attrs.template).toBe(`template-${id}`);
    expect(before.attrs.language).toBe('de-DE');
    const parts = () => {
      const list: { id: string; elements: string[]; marks: string[]; text: string }[] = [];
      before.forEach((node) => {
        if (node.type.name !== 'title') {
          list.push({
            id: node.attrs.id,
            elements: node.attrs.elements,
            marks: node.attrs.marks,
            text: node.textContent,
          });
        }
      });
      return list;
    };
    expect(parts()).toEqual([
      { id: 'authors', elements: [], marks: [], text: '' },
      { id: 'summary', elements: ['paragraph'], marks: ['em'], text: 'This chapter argues' },
      expect.objectContaining({ id: 'body', text: '' }),
    ]);
    expect(checkDocument(before)).toEqual([]);

    await browser.call(templatesApi.save, { id, title: 'Changed', definition: standardDefinition() });
    await browser.call(templatesApi.delete, { ids: [id] });
    const after = await storedContent(server(), documentId);
    expect(after.eq(before)).toBe(true);
    expect((await browser.call(documentsApi.get, { id: documentId })).status).toBe(200);
  });

  it('makes a Standard article without any stored template', async () => {
    const browser = await server().loginAs(await server().buildUser());
    const created = (await browser.call(templatesApi.createDocument, { template: 'standard-article' })).json<{
      id: number;
    }>();
    const doc = await storedContent(server(), created.id);
    expect(doc.attrs.template).toBe('standard-article');
    expect(doc.childCount).toBe(6);
  });

  it('makes a document of each built-in journal template, with its style, numbering, LaTeX layout and paper', async () => {
    const browser = await server().loginAs(await server().buildUser());
    for (const template of BUILTIN_TEMPLATES) {
      const response = await browser.call(templatesApi.createDocument, { template: template.id });
      expect(response.status, template.id).toBe(200);
      const doc = await storedContent(server(), response.json<{ id: number }>().id);
      expect(doc.attrs, template.id).toMatchObject({
        template: template.id,
        citationstyle: template.definition.citation_styles[0],
        heading_numbering: template.definition.heading_numbering,
        latex_class: template.definition.latex_class,
        paper_size: template.definition.paper_size,
      });
      expect(checkDocument(doc), template.id).toEqual([]);
    }
    const thesis = await storedContent(
      server(),
      (await browser.call(templatesApi.createDocument, { template: 'thesis' })).json<{ id: number }>().id,
    );
    expect(thesis.child(5).type.name).toBe('toc_part');
  });

  it('stores and lists DOCX and ODT export templates, refuses other files, removes them with the template', async () => {
    const browser = await server().loginAs(await server().buildUser());
    const id = await createTemplate(browser, 'With files');
    // A damaged zip is no reference document (checked on upload since issue 50).
    const damaged = await browser.call(templatesApi.uploadFile, {
      id,
      kind: 'docx',
      title: 'Damaged',
      file: new Blob([Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4])]),
    });
    expect(damaged.status).toBe(400);
    expect(damaged.json()).toMatchObject({ error: 'not_an_office_document' });
    const bytes = zipSync({
      'word/styles.xml': strToU8(
        '<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>',
      ),
    });
    const zip = new Blob([Buffer.from(bytes)]);
    const uploaded = await browser.call(templatesApi.uploadFile, {
      id,
      kind: 'docx',
      title: 'Publisher style',
      file: zip,
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    const refused = await browser.call(templatesApi.uploadFile, {
      id,
      kind: 'odt',
      title: 'Text',
      file: new Blob(['plain text']),
    });
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'not_an_office_document' });
    const got = (await browser.call(templatesApi.get, { id })).json<{ template: { files: unknown[] } }>();
    expect(got.template.files).toEqual([
      {
        id: expect.any(Number),
        kind: 'docx',
        title: 'Publisher style',
        size: bytes.length,
        added: expect.any(Number),
      },
    ]);
    const dir = path.join(server().ctx.config.dataDir, 'template-files');
    expect(readdirSync(dir)).toHaveLength(1);
    const stored = path.join(dir, readdirSync(dir)[0]);
    await browser.call(templatesApi.delete, { ids: [id] });
    expect(existsSync(stored)).toBe(false);
  });
});
