import { z } from 'zod';
import { okResponse } from '../base';
import * as sources from '../bib-sources';
import * as documents from '../documents';
import { endpoint } from '../endpoint';
import * as v1 from '../v1';

/**
 * The public API (issue 57), for scripts with a personal access token
 * (`Authorization: Bearer <token>`) as well as for the logged-in browser. Every endpoint here
 * carries the token scope it needs and a summary: the server registers the routes, the OpenAPI
 * document (/api/v1/openapi.json) and the reference page are all made from this one list.
 * Requests are form-encoded like the app's (spec 7); answers are JSON, errors the app's
 * `{ error, message }`.
 */
export const v1Api = {
  documentsList: endpoint({
    method: 'GET',
    path: '/api/v1/documents/',
    request: v1.pageRequest,
    response: v1.v1DocumentPage,
    tokenScope: 'documents:read',
    summary: 'List the documents you own or hold a right to, in pages.',
  }),
  documentsCreate: endpoint({
    method: 'POST',
    path: '/api/v1/documents/',
    request: documents.documentCreateRequest,
    response: documents.documentCreateResponse,
    tokenScope: 'documents:write',
    summary: 'Create a document (optionally with its content as ProseMirror JSON text).',
  }),
  documentsGet: endpoint({
    method: 'GET',
    path: '/api/v1/documents/:id/',
    response: v1.v1DocumentWithContent,
    tokenScope: 'documents:read',
    summary: 'Read a document with its latest content as ProseMirror JSON.',
  }),
  documentsContent: endpoint({
    method: 'POST',
    path: '/api/v1/documents/:id/content/',
    request: v1.v1ContentRequest,
    response: v1.v1ContentAnswer,
    tokenScope: 'documents:write',
    summary:
      'Append Markdown or ProseMirror JSON to the body, or replace the body (or the whole document), as one confirmed change that open editors see live.',
  }),
  documentsRename: endpoint({
    method: 'POST',
    path: '/api/v1/documents/:id/title/',
    request: v1.v1TitleRequest,
    response: v1.v1VersionAnswer,
    tokenScope: 'documents:write',
    summary: "Set the document's title (its title line, as an editor would).",
  }),
  documentsAccess: endpoint({
    method: 'GET',
    path: '/api/v1/documents/:id/access/',
    response: v1.v1AccessList,
    tokenScope: 'documents:read',
    summary: 'List who may read, comment, review or write a document you own.',
  }),
  documentsShare: endpoint({
    method: 'POST',
    path: '/api/v1/documents/:id/access/',
    request: v1.v1AccessRequest,
    response: documents.doneResponse,
    tokenScope: 'documents:write',
    summary:
      'Replace the rights of a document you own: JSON [{holder_type, holder_id, rights}] of your contacts and invites.',
  }),
  documentsMove: endpoint({
    method: 'POST',
    path: '/api/v1/documents/:id/move/',
    request: z.object({ path: documents.documentMoveRequest.shape.path }),
    response: documents.doneResponse,
    tokenScope: 'documents:write',
    summary: 'Move (or rename the folder path of) a document in your overview.',
  }),
  documentsDelete: endpoint({
    method: 'DELETE',
    path: '/api/v1/documents/:id/',
    response: documents.documentDeleteResponse,
    tokenScope: 'documents:write',
    summary: 'Delete a document you own, or leave one shared with you.',
  }),
  documentsExport: endpoint({
    method: 'GET',
    path: '/api/v1/documents/:id/export/:format/',
    response: z.instanceof(Uint8Array),
    tokenScope: 'documents:read',
    summary: 'Export a document as a file (pdf, docx, odt, html, latex, jats, epub, markdown, native).',
  }),
  bibliographyList: endpoint({
    method: 'GET',
    path: '/api/v1/bibliography/',
    request: v1.pageRequest,
    response: v1.v1BibPage,
    tokenScope: 'bibliography:read',
    summary: 'List your bibliography entries as CSL-JSON, in pages.',
  }),
  bibliographyAdd: endpoint({
    method: 'POST',
    path: '/api/v1/bibliography/',
    request: v1.v1BibEntryRequest,
    response: v1.v1BibEntryAnswer,
    tokenScope: 'bibliography:write',
    summary: 'Add an entry from a CSL-JSON item.',
  }),
  bibliographyGet: endpoint({
    method: 'GET',
    path: '/api/v1/bibliography/:id/',
    response: v1.v1BibEntryAnswer,
    tokenScope: 'bibliography:read',
    summary: 'Read one entry as CSL-JSON.',
  }),
  bibliographyUpdate: endpoint({
    method: 'POST',
    path: '/api/v1/bibliography/:id/',
    request: v1.v1BibEntryRequest,
    response: v1.v1BibEntryAnswer,
    tokenScope: 'bibliography:write',
    summary: 'Replace an entry with a CSL-JSON item (its categories stay).',
  }),
  bibliographyDelete: endpoint({
    method: 'DELETE',
    path: '/api/v1/bibliography/:id/',
    response: okResponse,
    tokenScope: 'bibliography:write',
    summary: 'Delete an entry.',
  }),
  bibliographyExportBibtex: endpoint({
    method: 'GET',
    path: '/api/v1/bibliography/export/bibtex/',
    response: z.instanceof(Uint8Array),
    tokenScope: 'bibliography:read',
    summary: 'Your whole bibliography as a BibTeX file (the keys as citation keys).',
  }),
  bibliographyImport: endpoint({
    method: 'POST',
    path: '/api/v1/bibliography/import/',
    request: v1.v1BibImportRequest,
    response: v1.v1BibImportAnswer,
    tokenScope: 'bibliography:write',
    summary: 'Add the entries of a BibTeX, BibLaTeX, CSL-JSON, RIS or EndNote file.',
  }),
  bibliographyCategories: endpoint({
    method: 'GET',
    path: '/api/v1/bibliography/categories/',
    response: v1.v1CategoryList,
    tokenScope: 'bibliography:read',
    summary: 'List your bibliography categories.',
  }),
  bibliographyCategoryAdd: endpoint({
    method: 'POST',
    path: '/api/v1/bibliography/categories/',
    request: v1.v1CategoryRequest,
    response: v1.v1CategoryAnswer,
    tokenScope: 'bibliography:write',
    summary: 'Add a bibliography category.',
  }),
  bibliographyCategoryDelete: endpoint({
    method: 'DELETE',
    path: '/api/v1/bibliography/categories/:id/',
    response: okResponse,
    tokenScope: 'bibliography:write',
    summary: 'Delete a category (its entries stay, without it).',
  }),
  bibliographySources: endpoint({
    method: 'GET',
    path: '/api/v1/bibliography/sources/',
    response: sources.sourceListResponse,
    tokenScope: 'bibliography:read',
    summary:
      'List your linked libraries (BibTeX/CSL-JSON files at URLs, Zotero libraries) and their last sync reports.',
  }),
  bibliographySourceAdd: endpoint({
    method: 'POST',
    path: '/api/v1/bibliography/sources/',
    request: sources.sourceAddRequest,
    response: sources.sourceAnswer,
    tokenScope: 'bibliography:write',
    summary:
      'Link a file at a URL (kind url) or a Zotero library (kind zotero) and sync it into a new category.',
  }),
  bibliographySourceSync: endpoint({
    method: 'POST',
    path: '/api/v1/bibliography/sources/:id/sync/',
    response: sources.sourceAnswer,
    tokenScope: 'bibliography:write',
    summary: 'Sync a linked library now; its report lists the keys added, updated and gone, and errors.',
  }),
  bibliographySourceDelete: endpoint({
    method: 'DELETE',
    path: '/api/v1/bibliography/sources/:id/',
    response: okResponse,
    tokenScope: 'bibliography:write',
    summary: 'Unlink a library (the entries it brought stay in your bibliography).',
  }),
  imagesList: endpoint({
    method: 'GET',
    path: '/api/v1/images/',
    request: v1.pageRequest,
    response: v1.v1ImagePage,
    tokenScope: 'images:read',
    summary: 'List the images of your library, in pages.',
  }),
  imagesUpload: endpoint({
    method: 'POST',
    path: '/api/v1/images/',
    body: 'multipart',
    request: v1.v1ImageUpload,
    response: v1.v1ImageAnswer,
    tokenScope: 'images:write',
    summary: 'Upload an image into your library (an identical file answers the image you have).',
  }),
  imagesDelete: endpoint({
    method: 'DELETE',
    path: '/api/v1/images/:id/',
    response: okResponse,
    tokenScope: 'images:write',
    summary: 'Delete an image from your library.',
  }),
};

export type V1Endpoint = (typeof v1Api)[keyof typeof v1Api];
