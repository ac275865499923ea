import { okResponse } from '../base';
import * as sources from '../bib-sources';
import * as bibliography from '../bibliography';
import { endpoint } from '../endpoint';

/** /api/bibliography/ (spec section 7). */
export const bibliographyApi = {
  list: endpoint({
    method: 'POST',
    path: '/api/bibliography/biblist/',
    request: bibliography.biblistRequest,
    response: bibliography.biblistResponse,
  }),
  save: endpoint({
    method: 'POST',
    path: '/api/bibliography/save/',
    request: bibliography.saveRequest,
    response: bibliography.saveResponse,
  }),
  saveCategories: endpoint({
    method: 'POST',
    path: '/api/bibliography/save_category/',
    request: bibliography.saveCategoryRequest,
    response: bibliography.saveCategoryResponse,
  }),
  deleteCategories: endpoint({
    method: 'DELETE',
    path: '/api/bibliography/delete_category/',
    request: bibliography.deleteRequest,
    response: bibliography.deleteResponse,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/api/bibliography/delete/',
    request: bibliography.deleteRequest,
    response: bibliography.deleteResponse,
  }),
};

/** Bibliography sources (issue 57): files at URLs and Zotero libraries synced into a category. */
export const bibSourcesApi = {
  list: endpoint({
    method: 'POST',
    path: '/api/bibliography/sources/list/',
    response: sources.sourceListResponse,
  }),
  add: endpoint({
    method: 'POST',
    path: '/api/bibliography/sources/add/',
    request: sources.sourceAddRequest,
    response: sources.sourceAnswer,
  }),
  sync: endpoint({
    method: 'POST',
    path: '/api/bibliography/sources/sync/',
    request: sources.sourceIdRequest,
    response: sources.sourceAnswer,
  }),
  remove: endpoint({
    method: 'POST',
    path: '/api/bibliography/sources/remove/',
    request: sources.sourceIdRequest,
    response: okResponse,
  }),
};
