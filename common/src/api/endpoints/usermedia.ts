import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  deleteImagesRequest,
  deleteImagesResponse,
  imagesResponse,
  saveCategoriesRequest,
  saveCategoriesResponse,
  saveImageFields,
  saveImageResponse,
} from '../usermedia';

/** /api/usermedia/ (spec section 7). */
export const usermediaApi = {
  images: endpoint({ method: 'GET', path: '/api/usermedia/images/', response: imagesResponse }),
  /** Multipart: the fields, and for a new image the file `image` (read by the route as a stream). */
  save: endpoint({
    method: 'POST',
    path: '/api/usermedia/save/',
    body: 'multipart',
    request: saveImageFields.extend({ image: z.instanceof(Blob).optional() }),
    response: saveImageResponse,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/api/usermedia/delete/',
    request: deleteImagesRequest,
    response: deleteImagesResponse,
  }),
  saveCategories: endpoint({
    method: 'POST',
    path: '/api/usermedia/save_category/',
    request: saveCategoriesRequest,
    response: saveCategoriesResponse,
  }),
};
