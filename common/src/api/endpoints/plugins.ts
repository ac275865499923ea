import { z } from 'zod';
import * as books from '../../plugins/books-api';
import * as templates from '../../plugins/templates-api';
import { doneResponse } from '../documents';
import { endpoint } from '../endpoint';

/** /api/templates/ (the Templates plugin, spec 2.1 and 2.2): answers only while the plugin is on. */
export const templatesApi = {
  list: endpoint({ method: 'GET', path: '/api/templates/list/', response: templates.templateListResponse }),
  get: endpoint({
    method: 'POST',
    path: '/api/templates/get/',
    request: templates.templateIdRequest,
    response: templates.templateGetResponse,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/templates/create/',
    request: templates.templateCreateRequest,
    response: templates.templateCreateResponse,
  }),
  save: endpoint({
    method: 'POST',
    path: '/api/templates/save/',
    request: templates.templateSaveRequest,
    response: templates.templateSaveResponse,
  }),
  copy: endpoint({
    method: 'POST',
    path: '/api/templates/copy/',
    request: templates.templateIdRequest,
    response: templates.templateCreateResponse,
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/templates/delete/',
    request: templates.templateDeleteRequest,
    response: templates.templateDeleteResponse,
  }),
  uploadFile: endpoint({
    method: 'POST',
    path: '/api/templates/file/upload/',
    body: 'multipart',
    request: templates.templateFileUploadFields.extend({ file: z.instanceof(Blob) }),
    response: templates.templateFileUploadResponse,
  }),
  deleteFile: endpoint({
    method: 'POST',
    path: '/api/templates/file/delete/',
    request: templates.templateFileDeleteRequest,
    response: doneResponse,
  }),
  createDocument: endpoint({
    method: 'POST',
    path: '/api/templates/create_document/',
    request: templates.documentFromTemplateRequest,
    response: templates.documentFromTemplateResponse,
  }),
};

/** /api/books/ (the Books plugin, spec 2.1 and 2.2): answers only while the plugin is on. */
export const booksApi = {
  list: endpoint({ method: 'GET', path: '/api/books/list/', response: books.bookListResponse }),
  get: endpoint({
    method: 'POST',
    path: '/api/books/get/',
    request: books.bookIdRequest,
    response: books.bookGetResponse,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/books/create/',
    request: books.bookCreateRequest,
    response: books.bookCreateResponse,
  }),
  save: endpoint({
    method: 'POST',
    path: '/api/books/save/',
    request: books.bookSaveRequest,
    response: books.bookSaveResponse,
  }),
  chapters: endpoint({
    method: 'POST',
    path: '/api/books/chapters/',
    request: books.bookChaptersRequest,
    response: books.bookGetResponse,
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/books/delete/',
    request: books.bookDeleteRequest,
    response: books.bookDeleteResponse,
  }),
  accessGet: endpoint({
    method: 'POST',
    path: '/api/books/access/get/',
    request: books.bookIdRequest,
    response: books.bookAccessResponse,
  }),
  accessSave: endpoint({
    method: 'POST',
    path: '/api/books/access/save/',
    request: books.bookAccessSaveRequest,
    response: doneResponse,
  }),
};
