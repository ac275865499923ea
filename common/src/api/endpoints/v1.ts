import { endpoint } from '../endpoint';
import * as v1 from '../v1';

/**
 * The public API (issue 57), for scripts with a personal access token
 * (`Authorization: Bearer <token>`) as well as for the logged-in browser. Every endpoint here
 * carries the token scope it needs and a summary: the server registers the routes, the OpenAPI
 * document (/api/v1/openapi.json) and the reference page are all made from this one list.
 */
export const v1Api = {
  documentsList: endpoint({
    method: 'GET',
    path: '/api/v1/documents/',
    request: v1.pageRequest,
    response: v1.v1DocumentPage,
    tokenScope: 'documents:read',
    summary: 'The documents you own or hold a right to, in pages.',
  }),
};
