import {
  accessGetRequest,
  accessGetResponse,
  accessSaveRequest,
  documentCopyRequest,
  documentCopyResponse,
  documentCreateRequest,
  documentCreateResponse,
  documentDeleteRequest,
  documentDeleteResponse,
  documentGetRequest,
  documentGetResponse,
  documentListResponse,
  documentMoveRequest,
  doneResponse,
} from '../documents';
import { endpoint } from '../endpoint';

/**
 * /api/documents/ (our design in the style of spec section 7). Every call only sees documents the
 * user owns or holds a right to.
 */
export const documentsApi = {
  list: endpoint({ method: 'POST', path: '/api/documents/list/', response: documentListResponse }),
  get: endpoint({
    method: 'POST',
    path: '/api/documents/get/',
    request: documentGetRequest,
    response: documentGetResponse,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/documents/create/',
    request: documentCreateRequest,
    response: documentCreateResponse,
  }),
  move: endpoint({
    method: 'POST',
    path: '/api/documents/move/',
    request: documentMoveRequest,
    response: doneResponse,
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/documents/delete/',
    request: documentDeleteRequest,
    response: documentDeleteResponse,
  }),
  copy: endpoint({
    method: 'POST',
    path: '/api/documents/copy/',
    request: documentCopyRequest,
    response: documentCopyResponse,
  }),
  accessGet: endpoint({
    method: 'POST',
    path: '/api/documents/access/get/',
    request: accessGetRequest,
    response: accessGetResponse,
  }),
  accessSave: endpoint({
    method: 'POST',
    path: '/api/documents/access/save/',
    request: accessSaveRequest,
    response: doneResponse,
  }),
};
