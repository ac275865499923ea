import { z } from 'zod';
import { endpoint } from '../endpoint';
import * as usermedia from '../usermedia';

/** /api/usermedia/ (spec section 7). */
export const usermediaApi = {
  images: endpoint({ method: 'GET', path: '/api/usermedia/images/', response: usermedia.imagesResponse }),
  /**
   * The same route with the client's cached state in the query: the list only when that is stale
   * (web/src/pages/usermedia/image-cache.ts keeps the copy).
   */
  imagesCheck: endpoint({
    method: 'GET',
    path: '/api/usermedia/images/',
    request: usermedia.imagesCheckRequest,
    response: usermedia.imagesCheckResponse,
  }),
  /** Multipart: the fields, and for a new image the file `image` (read by the route as a stream). */
  save: endpoint({
    method: 'POST',
    path: '/api/usermedia/save/',
    body: 'multipart',
    request: usermedia.saveImageFields.extend({ image: z.instanceof(Blob).optional() }),
    response: usermedia.saveImageResponse,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/api/usermedia/delete/',
    request: usermedia.deleteImagesRequest,
    response: usermedia.deleteImagesResponse,
  }),
  saveCategories: endpoint({
    method: 'POST',
    path: '/api/usermedia/save_category/',
    request: usermedia.saveCategoriesRequest,
    response: usermedia.saveCategoriesResponse,
  }),
};
