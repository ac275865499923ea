import type {
  documentCreateResponse,
  documentDeleteResponse,
  doneResponse,
} from '@scriptorium/common/api/documents';
import { v1Api } from '@scriptorium/common/api/endpoints/v1';
import { saveImageFields } from '@scriptorium/common/api/usermedia';
import {
  pageOf,
  type v1BibPage,
  type v1ContentAnswer,
  type v1DocumentPage,
  type v1DocumentWithContent,
  type v1ImagePage,
  type v1VersionAnswer,
} from '@scriptorium/common/api/v1';
import { titleSteps } from '@scriptorium/common/editor/body-content';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { HttpError } from '../../http/errors';
import { requireUser } from '../../http/session';
import { readmitLive } from '../../ws/hub';
import { addSource, listSources, removeSource, syncNow } from '../bibliography/sources/commands';
import { DOCUMENT_ENDPOINT } from '../documents/collab/document-endpoint';
import { commitServerChange } from '../documents/collab/server-change';
import { currentContent } from '../documents/collab/store';
import { createRequestedDocument } from '../documents/commands/create-document';
import { deleteDocuments } from '../documents/commands/delete-documents';
import { getAccess } from '../documents/commands/get-access';
import { moveDocument } from '../documents/commands/move-document';
import { saveAccess } from '../documents/commands/save-access';
import { exportFile } from '../documents/export/export-file';
import { attachmentHeader } from '../documents/export/gather-input';
import { requireOwner, requireVisible } from '../documents/policies';
import { presentDocument, presentDocumentList } from '../documents/presenters';
import { listVisibleDocumentsAndOwners } from '../documents/queries';
import { deleteImages } from '../usermedia/commands/delete-images';
import { listImages } from '../usermedia/commands/list-images';
import { createImage } from '../usermedia/commands/save-image';
import { ImageRejected } from '../usermedia/image-rejected';
import { usermediaMessage } from '../usermedia/messages';
import { readSaveInput, TooLarge } from '../usermedia/routes';
import {
  addCategory,
  bibtexFile,
  deleteCategory,
  deleteCslEntry,
  importFile,
  listCategories,
  listCslEntries,
  ownEntryRow,
  presentCslEntries,
  saveCslEntry,
} from './bibliography';
import { contentChange } from './content';
import { openApiDocument } from './openapi';

/** A path's id: a positive 32-bit integer, else 404 (as an unknown id). */
function idOf(value: string): number {
  const id = Number(value);
  if (!/^[0-9]{1,10}$/.test(value) || !Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) {
    throw new HttpError(404);
  }
  return id;
}

/**
 * The public API under /api/v1/ (issue 57; endpoints in common/src/api/endpoints/v1.ts). The
 * routes reuse the app's commands, queries, policies and presenters: a token's call does what the
 * same user's browser would, and is refused the same way.
 */
export function v1Routes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    // The description of everything below, made from the same endpoint list (no token needed).
    const openApiJson = JSON.stringify(openApiDocument());
    app.get('/api/v1/openapi.json', (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(openApiJson),
    );

    route(app, v1Api.documentsList, async (request): Promise<z.input<typeof v1DocumentPage>> => {
      const user = requireUser(request);
      const page = parseInput(request, v1Api.documentsList);
      const { documents, owners } = await listVisibleDocumentsAndOwners(ctx.db, user.id);
      const { items, next_cursor } = pageOf(presentDocumentList(documents, owners), page);
      return { documents: items, next_cursor };
    });

    route(app, v1Api.documentsCreate, async (request): Promise<z.infer<typeof documentCreateResponse>> => {
      const user = requireUser(request);
      const input = parseInput(request, v1Api.documentsCreate);
      // Without content the app's editor fills in the template on first opening; a script's
      // document gets it at once (a Standard article with the title), so that it exports as is.
      const content =
        input.content ??
        JSON.stringify(createDocument(schema, standardArticle, { title: input.title }).toJSON());
      return createRequestedDocument(ctx, user, { ...input, content });
    });

    route(app, v1Api.documentsGet, async (request): Promise<z.input<typeof v1DocumentWithContent>> => {
      const user = requireUser(request);
      const document = await requireVisible(ctx.db, user.id, idOf(request.params.id));
      const content = await currentContent(ctx.db, document.id);
      return { document: presentDocument(document), content: JSON.parse(content ?? 'null') };
    });

    route(app, v1Api.documentsContent, async (request): Promise<z.input<typeof v1ContentAnswer>> => {
      const user = requireUser(request);
      const id = idOf(request.params.id);
      const input = parseInput(request, v1Api.documentsContent);
      const change = await contentChange(ctx, user.id, input);
      const { version } = await commitServerChange(ctx, id, user.id, change.steps);
      return { version, unknown_citations: change.unknownCitations, unknown_images: change.unknownImages };
    });

    route(app, v1Api.documentsRename, async (request): Promise<z.input<typeof v1VersionAnswer>> => {
      const user = requireUser(request);
      const id = idOf(request.params.id);
      const { title } = parseInput(request, v1Api.documentsRename);
      return commitServerChange(ctx, id, user.id, (doc) => titleSteps(doc, title));
    });

    route(app, v1Api.documentsAccess, async (request) => {
      const user = requireUser(request);
      const id = idOf(request.params.id);
      await requireOwner(ctx.db, user.id, id);
      return { access: await getAccess(ctx, user, { id }) };
    });

    route(app, v1Api.documentsShare, async (request): Promise<z.infer<typeof doneResponse>> => {
      const user = requireUser(request);
      const id = idOf(request.params.id);
      const { access } = parseInput(request, v1Api.documentsShare);
      await saveAccess(ctx, user, { id, access });
      // A removed (or lowered) right takes effect on open document sockets at once.
      await readmitLive(ctx, DOCUMENT_ENDPOINT, id);
      return { done: true };
    });

    route(app, v1Api.documentsMove, async (request): Promise<z.infer<typeof doneResponse>> => {
      const user = requireUser(request);
      const id = idOf(request.params.id);
      const { path } = parseInput(request, v1Api.documentsMove);
      await moveDocument(ctx, user, { id, path });
      return { done: true };
    });

    route(app, v1Api.documentsDelete, async (request): Promise<z.infer<typeof documentDeleteResponse>> => {
      const user = requireUser(request);
      const id = idOf(request.params.id);
      await requireVisible(ctx.db, user.id, id);
      const result = await deleteDocuments(ctx, user, { ids: [id] });
      for (const gone of [...result.deleted, ...result.left]) await readmitLive(ctx, DOCUMENT_ENDPOINT, gone);
      return result;
    });

    route(app, v1Api.documentsExport, async (request, reply) => {
      const user = requireUser(request);
      const document = await requireVisible(ctx.db, user.id, idOf(request.params.id));
      const file = await exportFile(ctx, user.id, document, request.params.format);
      reply.header('content-disposition', attachmentHeader(file.name));
      return reply
        .type(file.mime)
        .send(Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength));
    });

    route(app, v1Api.bibliographyList, async (request): Promise<z.input<typeof v1BibPage>> => {
      const user = requireUser(request);
      const page = parseInput(request, v1Api.bibliographyList);
      const { items, next_cursor } = pageOf(await listCslEntries(ctx, user.id), page);
      return { entries: await presentCslEntries(items), next_cursor };
    });

    route(app, v1Api.bibliographyAdd, async (request) => {
      const user = requireUser(request);
      const { csl } = parseInput(request, v1Api.bibliographyAdd);
      return { entry: await saveCslEntry(ctx, user.id, csl) };
    });

    route(app, v1Api.bibliographyGet, async (request) => {
      const user = requireUser(request);
      const row = await ownEntryRow(ctx, user.id, idOf(request.params.id));
      return { entry: (await presentCslEntries([row]))[0] };
    });

    route(app, v1Api.bibliographyUpdate, async (request) => {
      const user = requireUser(request);
      const id = idOf(request.params.id);
      const { csl } = parseInput(request, v1Api.bibliographyUpdate);
      return { entry: await saveCslEntry(ctx, user.id, csl, id) };
    });

    route(app, v1Api.bibliographyDelete, async (request) => {
      const user = requireUser(request);
      await deleteCslEntry(ctx, user.id, idOf(request.params.id));
      return { ok: true as const };
    });

    route(app, v1Api.bibliographyExportBibtex, async (request, reply) => {
      const user = requireUser(request);
      reply.header('content-disposition', attachmentHeader('bibliography.bib'));
      return reply.type('application/x-bibtex; charset=utf-8').send(await bibtexFile(ctx, user.id));
    });

    route(app, v1Api.bibliographyImport, async (request) => {
      const user = requireUser(request);
      const { text } = parseInput(request, v1Api.bibliographyImport);
      return importFile(ctx, user.id, text);
    });

    route(app, v1Api.bibliographyCategories, async (request) => {
      const user = requireUser(request);
      return { categories: await listCategories(ctx, user.id) };
    });

    route(app, v1Api.bibliographyCategoryAdd, async (request) => {
      const user = requireUser(request);
      const { title } = parseInput(request, v1Api.bibliographyCategoryAdd);
      return { category: await addCategory(ctx, user.id, title) };
    });

    route(app, v1Api.bibliographyCategoryDelete, async (request) => {
      const user = requireUser(request);
      await deleteCategory(ctx, user.id, idOf(request.params.id));
      return { ok: true as const };
    });

    route(app, v1Api.bibliographySources, async (request) => {
      const user = requireUser(request);
      return { sources: await listSources(ctx, user) };
    });

    route(app, v1Api.bibliographySourceAdd, async (request) => {
      const user = requireUser(request);
      const input = parseInput(request, v1Api.bibliographySourceAdd);
      return { source: await addSource(ctx, user, input) };
    });

    route(app, v1Api.bibliographySourceSync, async (request) => {
      const user = requireUser(request);
      return { source: await syncNow(ctx, user, { id: idOf(request.params.id) }) };
    });

    route(app, v1Api.bibliographySourceDelete, async (request) => {
      const user = requireUser(request);
      await removeSource(ctx, user, { id: idOf(request.params.id) });
      return { ok: true as const };
    });

    route(app, v1Api.imagesList, async (request): Promise<z.input<typeof v1ImagePage>> => {
      const user = requireUser(request);
      const page = parseInput(request, v1Api.imagesList);
      const { images } = JSON.parse(await listImages(ctx, user)) as z.input<typeof v1ImagePage>;
      const { items, next_cursor } = pageOf(images, page);
      return { images: items, next_cursor };
    });

    route(app, v1Api.imagesUpload, async (request, reply) => {
      const user = requireUser(request);
      const refuse = (status: number, reason: Parameters<typeof usermediaMessage>[1]) =>
        reply.code(status).send({ error: reason, message: usermediaMessage(request.language, reason) });
      let upload: Awaited<ReturnType<typeof readSaveInput>>;
      try {
        upload = await readSaveInput(request, ctx.config.mediaMaxSize);
      } catch (error) {
        if (error instanceof TooLarge) return refuse(413, 'tooLarge');
        return refuse(400, 'malformedUpload');
      }
      if (!upload.file || upload.file.length === 0) return refuse(400, 'noFile');
      const fields = saveImageFields.parse({ title: upload.fields.title ?? '' });
      try {
        const { image } = await createImage(ctx, user, { ...fields, file: upload.file });
        return { image };
      } catch (error) {
        if (error instanceof ImageRejected) return refuse(400, error.reason);
        throw error;
      }
    });

    route(app, v1Api.imagesDelete, async (request) => {
      const user = requireUser(request);
      await deleteImages(ctx, user, { ids: [idOf(request.params.id)] });
      return { ok: true as const };
    });
  };
}
