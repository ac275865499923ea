import { z } from 'zod';
import * as books from '../../plugins/books-api';
import { itemCreateResponse, itemEndpoints, itemIdRequest } from '../../plugins/items-api';
import * as templates from '../../plugins/templates-api';
import { doneResponse } from '../documents';
import { endpoint } from '../endpoint';

/** /api/templates/ (the Templates plugin, spec 2.1 and 2.2): answers only while the plugin is on. */
export const templatesApi = {
  ...itemEndpoints('/api/templates/', {
    list: templates.templateListResponse,
    get: templates.templateGetResponse,
    create: templates.templateCreateRequest,
    save: templates.templateSaveRequest,
  }),
  copy: endpoint({
    method: 'POST',
    path: '/api/templates/copy/',
    request: itemIdRequest,
    response: itemCreateResponse,
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
  ...itemEndpoints('/api/books/', {
    list: books.bookListResponse,
    get: books.bookGetResponse,
    create: books.bookCreateRequest,
    save: books.bookSaveRequest,
  }),
  chapters: endpoint({
    method: 'POST',
    path: '/api/books/chapters/',
    request: books.bookChaptersRequest,
    response: books.bookGetResponse,
  }),
  accessGet: endpoint({
    method: 'POST',
    path: '/api/books/access/get/',
    request: itemIdRequest,
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
