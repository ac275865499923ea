import {
  accessGetRequest,
  type accessGetResponse,
  accessSaveRequest,
  documentCopyRequest,
  type documentCopyResponse,
  documentCreateRequest,
  type documentCreateResponse,
  documentDeleteRequest,
  type documentDeleteResponse,
  documentGetRequest,
  type documentGetResponse,
  type documentListResponse,
  documentMoveRequest,
  type doneResponse,
} from '@scriptorium/common/api/documents';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { parseForm } from '../../http/errors';
import { requireUser } from '../../http/session';
import { readmitLive } from '../../ws/hub';
import { registerContactRemovedHook } from '../contacts/hooks';
import { DOCUMENT_ENDPOINT } from './collab/document-endpoint';
import { removeRightsBetween } from './commands/contact-rights';
import { copyDocuments } from './commands/copy-documents';
import { createDocument } from './commands/create-document';
import { deleteDocuments } from './commands/delete-documents';
import { getAccess } from './commands/get-access';
import { moveDocument } from './commands/move-document';
import { saveAccess } from './commands/save-access';
import { requireOwner, requireVisible } from './policies';
import { presentDocument } from './presenters';
import { listVisibleDocuments } from './queries';

/** The documents API, mounted at /api/documents (paths in DOCUMENTS_API of the common contract). */
export function documentsRoutes(ctx: AppContext): FastifyPluginAsync {
  // Removing a contact removes the document rights between the two, in the same transaction.
  registerContactRemovedHook('documents', removeRightsBetween);
  return async (app) => {
    app.post('/list/', async (request): Promise<z.infer<typeof documentListResponse>> => {
      const user = requireUser(request);
      const documents = await listVisibleDocuments(ctx.db, user.id);
      return { documents: documents.map(presentDocument) };
    });

    app.post('/get/', async (request): Promise<z.infer<typeof documentGetResponse>> => {
      const user = requireUser(request);
      const { id } = parseForm(request, documentGetRequest);
      return { document: presentDocument(await requireVisible(ctx.db, user.id, id)) };
    });

    app.post('/create/', async (request): Promise<z.infer<typeof documentCreateResponse>> => {
      const user = requireUser(request);
      const input = parseForm(request, documentCreateRequest);
      return createDocument(ctx.db, user.id, input);
    });

    app.post('/move/', async (request): Promise<z.infer<typeof doneResponse>> => {
      const user = requireUser(request);
      const input = parseForm(request, documentMoveRequest);
      await moveDocument(ctx.db, user.id, input);
      return { done: true };
    });

    app.post('/delete/', async (request): Promise<z.infer<typeof documentDeleteResponse>> => {
      const user = requireUser(request);
      const { ids } = parseForm(request, documentDeleteRequest);
      const result = await deleteDocuments(ctx.db, user.id, ids);
      // Sockets on a deleted document, or of a collaborator who left it, get access_denied.
      for (const id of [...result.deleted, ...result.left]) await readmitLive(ctx, DOCUMENT_ENDPOINT, id);
      return result;
    });

    app.post('/copy/', async (request): Promise<z.infer<typeof documentCopyResponse>> => {
      const user = requireUser(request);
      const input = parseForm(request, documentCopyRequest);
      const copies = await copyDocuments(ctx.db, user.id, input);
      return { documents: copies.map(presentDocument) };
    });

    app.post('/access/get/', async (request): Promise<z.infer<typeof accessGetResponse>> => {
      const user = requireUser(request);
      const { id } = parseForm(request, accessGetRequest);
      await requireOwner(ctx.db, user.id, id);
      return { access: await getAccess(ctx.db, id) };
    });

    app.post('/access/save/', async (request): Promise<z.infer<typeof doneResponse>> => {
      const user = requireUser(request);
      const input = parseForm(request, accessSaveRequest);
      await saveAccess(ctx.db, user.id, input);
      // A removed (or lowered) right takes effect on open document sockets at once.
      await readmitLive(ctx, DOCUMENT_ENDPOINT, input.id);
      return { done: true };
    });
  };
}
