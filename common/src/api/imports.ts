import * as z from 'zod/mini';
import { IMPORT_NOTES, IMPORT_REFUSALS } from '../import/problems';
import { PATH_INPUT_MAX } from './documents';
import { textField } from './text-rules';

/**
 * POST /api/documents/import/ (issue 19): a DOCX, ODT or native zip becomes a new document of the
 * user, with its images in the library, its cited entries in the bibliography and its comments,
 * all in one transaction. The answer's notes list what could not be kept.
 *
 * Written with zod/mini (text-rules.ts has the rules of fields.ts): the logged-in overview's chunk
 * loads this module at start, and classic zod there cost 13-20 ms of main-thread time (issue 23).
 */
export const importFields = z.object({
  /** The folder to put the new document in (as in documents create). */
  path: z._default(z.optional(textField(z.maxLength(PATH_INPUT_MAX))), ''),
});

export const importNote = z.object({
  code: z.enum(IMPORT_NOTES),
  detail: z.string(),
  count: z.number().check(z.int()),
});

export const importResponse = z.union([
  z.object({
    id: z.number().check(z.int()),
    path: z.string(),
    title: z.string(),
    notes: z.array(importNote),
    images: z.number().check(z.int()),
    entries: z.number().check(z.int()),
  }),
  z.object({ error: z.string(), code: z.enum(IMPORT_REFUSALS) }),
]);
export type ImportResponse = z.infer<typeof importResponse>;
