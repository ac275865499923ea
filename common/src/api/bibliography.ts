import { z } from 'zod';
import type { EntryData } from '../bibliography/types';
import { cacheNumber, formId, formIdOrZero, MAX_ID, text } from './fields';
import { formBoolean, jsonField } from './form';

/** POST /api/bibliography/biblist/: the client's cached state. */
export const biblistRequest = z.object({
  last_modified: cacheNumber,
  number_of_entries: cacheNumber,
  user_id: cacheNumber,
});
export type BiblistRequest = z.input<typeof biblistRequest>;

export const bibCategory = z.object({ id: z.number().int(), category_title: z.string() });

/**
 * Entry data as sent and stored. Its fields are checked against the converter's model by
 * validateEntry (common/src/bibliography/validate), which names the entry and field at fault.
 */
export const entryData = z.custom<EntryData>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
);

export const bibEntry = z.object({
  id: z.number().int(),
  entry_key: z.string(),
  bib_type: z.string(),
  fields: z.record(z.string(), z.unknown()),
  cats: z.array(z.number().int()),
});

/**
 * Spec section 3: bibliography list response. bib_list, last_modified and number_of_entries are
 * only present when the client's copy is stale.
 */
export const biblistResponse = z.object({
  bib_categories: z.array(bibCategory),
  user_id: z.number().int(),
  bib_list: z.array(bibEntry).optional(),
  last_modified: z.number().optional(),
  number_of_entries: z.number().int().optional(),
});
export type BiblistResponse = z.infer<typeof biblistResponse>;

/** At most this many entries per save request; the browser saves larger imports in chunks. */
export const MAX_ENTRIES_PER_SAVE = 1000;

/**
 * POST /api/bibliography/save/: `bibs` is JSON text of an object keyed by id. With is_new the
 * ids are the client's temporary ones and new entries are made; otherwise they are the ids of
 * the user's entries to update.
 */
export const saveRequest = z.object({
  is_new: formBoolean,
  bibs: jsonField(
    z
      .record(
        z
          .string()
          .regex(/^-?\d{1,10}$/)
          .refine((key) => Math.abs(Number(key)) <= MAX_ID, { message: 'id out of range' }),
        z.unknown(),
      )
      .refine((bibs) => Object.keys(bibs).length <= MAX_ENTRIES_PER_SAVE, { message: 'too many entries' }),
  ),
});
export type SaveRequest = z.input<typeof saveRequest>;

/**
 * The list's stamp after a write, and the one before it: a client whose cache had the earlier
 * stamp can take the new one over and stay current without fetching the list again.
 */
export const listStamp = z.object({
  last_modified: z.number(),
  previous_last_modified: z.number(),
  number_of_entries: z.number().int(),
});
export type ListStamp = z.infer<typeof listStamp>;

/** Spec: id_translations, pairs of the client's id and the server's id; plus the saved keys. */
export const saveResponse = listStamp.extend({
  id_translations: z.array(z.tuple([z.number(), z.number()])),
  entry_keys: z.array(z.tuple([z.number(), z.string()])),
});
export type SaveResponse = z.infer<typeof saveResponse>;

/** One entry or field the server refused (400 with error "invalid_entries"). */
export const entryProblem = z.object({
  /** The key of the object in `bibs`. */
  id: z.string(),
  entry_key: z.string().nullable(),
  field: z.string().nullable(),
  code: z.string(),
});
export const invalidEntriesResponse = z.object({
  error: z.literal('invalid_entries'),
  message: z.string(),
  problems: z.array(entryProblem),
});
export type InvalidEntriesResponse = z.infer<typeof invalidEntriesResponse>;

/**
 * POST /api/bibliography/save_category/: parallel lists of ids (0 for a new category) and
 * titles. Titles are trimmed; an empty title is dropped (as for image categories, spec 5).
 */
export const saveCategoryRequest = z.object({
  ids: z.array(formIdOrZero).max(1000).default([]),
  titles: z.array(text().max(255)).max(1000).default([]),
});
export const saveCategoryResponse = z.object({ entries: z.array(bibCategory) });

export const deleteResponse = listStamp;

/** DELETE /api/bibliography/delete/ and /delete_category/. */
export const deleteRequest = z.object({
  ids: z.array(formId).min(1).max(100_000),
});
