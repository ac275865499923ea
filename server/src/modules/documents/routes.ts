import type {
  accessGetResponse,
  documentCopyResponse,
  documentCreateResponse,
  documentDeleteResponse,
  documentGetResponse,
  doneResponse,
} from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { pathId } from '@scriptorium/common/api/fields';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { HttpError } from '../../http/errors';
import { requireUser } from '../../http/session';
import { readmitLive } from '../../ws/hub';
import { registerContactRemovedHook, removeRightsHook } from '../contacts/hooks';
import { DOCUMENT_ENDPOINT } from './collab/document-endpoint';
import { copyDocuments } from './commands/copy-documents';
import { createRequestedDocument } from './commands/create-document';
import { deleteDocuments } from './commands/delete-documents';
import { getAccess } from './commands/get-access';
import { moveDocument } from './commands/move-document';
import { saveAccess } from './commands/save-access';
import { exportFile } from './export/export-file';
import { closeExportPool } from './export/export-pool';
import { attachmentHeader } from './export/gather-input';
import { closeHeavyWork } from './export/heavy-work';
import { closePrinter } from './export/printer';
import { documentListJson, keptCompressedCopies } from './list-cache';
import { requireOwner, requireVisible } from './policies';
import { presentDocument } from './presenters';

/** The documents API, /api/documents/ (paths in documentsApi of the common contract). */
export function documentsRoutes(ctx: AppContext): FastifyPluginAsync {
  // Removing a contact removes the document rights between the two, in the same transaction.
  registerContactRemovedHook(
    'documents',
    removeRightsHook({ access: 'document_access', item: 'document_id', items: 'documents' }),
  );
  return async (app) => {
    app.addHook('onClose', async () => {
      await Promise.all([closeExportPool(ctx.config), closePrinter(ctx.config), closeHeavyWork(ctx.config)]);
      app.log.info('stopping: export workers and printer closed');
    });

    route(app, documentsApi.list, async (request, reply) => {
      const user = requireUser(request);
      const json = await documentListJson(ctx.db, user.id);
      reply.compressedCopies = keptCompressedCopies(ctx.db, user.id, json);
      return reply.type('application/json; charset=utf-8').send(json);
    });

    route(app, documentsApi.get, async (request): Promise<z.infer<typeof documentGetResponse>> => {
      const user = requireUser(request);
      const { id } = parseInput(request, documentsApi.get);
      return { document: presentDocument(await requireVisible(ctx.db, user.id, id)) };
    });

    route(app, documentsApi.create, async (request): Promise<z.infer<typeof documentCreateResponse>> => {
      const user = requireUser(request);
      const input = parseInput(request, documentsApi.create);
      return createRequestedDocument(ctx, user, input);
    });

    route(app, documentsApi.move, async (request): Promise<z.infer<typeof doneResponse>> => {
      const user = requireUser(request);
      const input = parseInput(request, documentsApi.move);
      await moveDocument(ctx, user, input);
      return { done: true };
    });

    route(app, documentsApi.delete, async (request): Promise<z.infer<typeof documentDeleteResponse>> => {
      const user = requireUser(request);
      const result = await deleteDocuments(ctx, user, parseInput(request, documentsApi.delete));
      // Sockets on a deleted document, or of a collaborator who left it, get access_denied.
      for (const id of [...result.deleted, ...result.left]) await readmitLive(ctx, DOCUMENT_ENDPOINT, id);
      return result;
    });

    route(app, documentsApi.copy, async (request): Promise<z.infer<typeof documentCopyResponse>> => {
      const user = requireUser(request);
      const input = parseInput(request, documentsApi.copy);
      const copies = await copyDocuments(ctx, user, input);
      return { documents: copies.map(presentDocument) };
    });

    route(app, documentsApi.accessGet, async (request): Promise<z.infer<typeof accessGetResponse>> => {
      const user = requireUser(request);
      const { id } = parseInput(request, documentsApi.accessGet);
      await requireOwner(ctx.db, user.id, id);
      return { access: await getAccess(ctx, user, { id }) };
    });

    route(app, documentsApi.export, async (request, reply) => {
      const user = requireUser(request);
      const id = pathId(request.params.id);
      if (id === null) throw new HttpError(404);
      const document = await requireVisible(ctx.db, user.id, id);
      const file = await exportFile(ctx, user.id, document, request.params.format);
      reply.header('content-disposition', attachmentHeader(file.name));
      reply.header('cache-control', 'private, no-store');
      return reply
        .type(file.mime)
        .send(Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength));
    });

    route(app, documentsApi.accessSave, async (request): Promise<z.infer<typeof doneResponse>> => {
      const user = requireUser(request);
      const input = parseInput(request, documentsApi.accessSave);
      await saveAccess(ctx, user, input);
      // A removed (or lowered) right takes effect on open document sockets at once.
      await readmitLive(ctx, DOCUMENT_ENDPOINT, input.id);
      return { done: true };
    });
  };
}
