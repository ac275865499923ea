import * as z from 'zod/mini';
import * as documents from '../documents';
import { endpoint } from '../endpoint';

/**
 * /api/documents/ (our design in the style of spec section 7). Every call only sees documents the
 * user owns or holds a right to. Written with zod/mini, as ../documents.ts: the logged-in overview's
 * chunk loads it at start (issue 23).
 */
export const documentsApi = {
  list: endpoint({ method: 'POST', path: '/api/documents/list/', response: documents.documentListResponse }),
  get: endpoint({
    method: 'POST',
    path: '/api/documents/get/',
    request: documents.documentGetRequest,
    response: documents.documentGetResponse,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/documents/create/',
    request: documents.documentCreateRequest,
    response: documents.documentCreateResponse,
  }),
  move: endpoint({
    method: 'POST',
    path: '/api/documents/move/',
    request: documents.documentMoveRequest,
    response: documents.doneResponse,
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/documents/delete/',
    request: documents.documentDeleteRequest,
    response: documents.documentDeleteResponse,
  }),
  copy: endpoint({
    method: 'POST',
    path: '/api/documents/copy/',
    request: documents.documentCopyRequest,
    response: documents.documentCopyResponse,
  }),
  accessGet: endpoint({
    method: 'POST',
    path: '/api/documents/access/get/',
    request: documents.accessGetRequest,
    response: documents.accessGetResponse,
  }),
  /**
   * The document as a file in one export format (issue 19; formats in common/src/export/registry.ts
   * plus pdf), for anyone who may read it. Answers the file (Content-Disposition with its name from
   * the title), not JSON; 404 for an unknown format or a document the user cannot see.
   */
  export: endpoint({
    method: 'GET',
    path: '/api/documents/:id/export/:format/',
    response: z.instanceof(Uint8Array),
  }),
  accessSave: endpoint({
    method: 'POST',
    path: '/api/documents/access/save/',
    request: documents.accessSaveRequest,
    response: documents.doneResponse,
  }),
};
