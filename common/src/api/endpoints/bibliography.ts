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
