import { z } from 'zod';
import { endpoint } from '../endpoint';
import { importFields, importResponse } from '../imports';

/** New document > Import (issue 19). */
export const importApi = {
  /** Multipart: `path` and the file `file` (read by the route as a stream, 50 MB at most). */
  document: endpoint({
    method: 'POST',
    path: '/api/documents/import/',
    body: 'multipart',
    request: importFields.extend({ file: z.instanceof(Blob) }),
    response: importResponse,
  }),
};
