import {
  biblistRequest,
  biblistResponse,
  deleteRequest,
  deleteResponse,
  saveCategoryRequest,
  saveCategoryResponse,
  saveRequest,
  saveResponse,
} from '../bibliography';
import { endpoint } from '../endpoint';

/** /api/bibliography/ (spec section 7). */
export const bibliographyApi = {
  list: endpoint({
    method: 'POST',
    path: '/api/bibliography/biblist/',
    request: biblistRequest,
    response: biblistResponse,
  }),
  save: endpoint({
    method: 'POST',
    path: '/api/bibliography/save/',
    request: saveRequest,
    response: saveResponse,
  }),
  saveCategories: endpoint({
    method: 'POST',
    path: '/api/bibliography/save_category/',
    request: saveCategoryRequest,
    response: saveCategoryResponse,
  }),
  deleteCategories: endpoint({
    method: 'DELETE',
    path: '/api/bibliography/delete_category/',
    request: deleteRequest,
    response: deleteResponse,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/api/bibliography/delete/',
    request: deleteRequest,
    response: deleteResponse,
  }),
};
