import * as z from 'zod/mini';
import { endpoint } from '../endpoint';
import { importFields, importResponse } from '../imports';

/**
 * New document > Import (issue 19). Written with zod/mini, as ../imports.ts: the logged-in
 * overview's chunk loads it at start (issue 23).
 */
export const importApi = {
  /** Multipart: `path` and the file `file` (read by the route as a stream, 50 MB at most). */
  document: endpoint({
    method: 'POST',
    path: '/api/documents/import/',
    body: 'multipart',
    request: z.extend(importFields, { file: z.instanceof(Blob) }),
    response: importResponse,
  }),
};
