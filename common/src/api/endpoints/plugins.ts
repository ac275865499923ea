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
  /**
   * The whole book as one file (issue 21): format epub, html, latex, pdf or docx
   * (BOOK_EXPORT_FORMATS of common/src/export/book.ts). Only the chapters the user may read are in
   * it; the header `x-chapters-left-out` lists the places (1, 2, ...) of those left out. Answers the
   * file, not JSON; 404 for another format or a book the user cannot see.
   */
  export: endpoint({
    method: 'GET',
    path: '/api/books/:id/export/:format/',
    response: z.instanceof(Uint8Array),
  }),
};
