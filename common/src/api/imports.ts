import { z } from 'zod';
import { IMPORT_NOTES, IMPORT_REFUSALS } from '../import/problems';
import { PATH_INPUT_MAX } from './documents';
import { text } from './fields';

/**
 * POST /api/documents/import/ (issue 19): a DOCX, ODT or native zip becomes a new document of the
 * user, with its images in the library, its cited entries in the bibliography and its comments,
 * all in one transaction. The answer's notes list what could not be kept.
 */
export const importFields = z.object({
  /** The folder to put the new document in (as in documents create). */
  path: text().max(PATH_INPUT_MAX).optional().default(''),
});

export const importNote = z.object({
  code: z.enum(IMPORT_NOTES),
  detail: z.string(),
  count: z.number().int(),
});

export const importResponse = z.union([
  z.object({
    id: z.number().int(),
    path: z.string(),
    title: z.string(),
    notes: z.array(importNote),
    images: z.number().int(),
    entries: z.number().int(),
  }),
  z.object({ error: z.string(), code: z.enum(IMPORT_REFUSALS) }),
]);
export type ImportResponse = z.infer<typeof importResponse>;
