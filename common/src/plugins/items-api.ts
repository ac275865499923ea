import { z } from 'zod';
import { endpoint } from '../api/endpoint';
import { formId, jsonId, text } from '../api/fields';
import { jsonField } from '../api/form';

/**
 * What the plugins' items (books, templates) share: the first fields of a list entry, the title
 * field, and the five calls list, get, create, save and delete under the plugin's path, whose
 * requests and answers differ only where the item's own data goes.
 */

/** The fields every item's list entry starts with. */
export const itemListFields = {
  id: z.number(),
  title: z.string(),
  added: z.number(),
  updated: z.number(),
};

/** An item's title as a request sends it (trimmed; create and save). */
function itemTitle(max: number) {
  return text().trim().max(max);
}

/** The request of `create/`: an optional title ('' when left out) and the item's own fields. */
export function itemCreateRequest<Shape extends z.ZodRawShape>(titleMax: number, fields: Shape) {
  return z.object({ title: itemTitle(titleMax).optional().default('') }).extend(fields);
}

/** The request of `save/`: the item's id, its title and the item's own fields. */
export function itemSaveRequest<Shape extends z.ZodRawShape>(titleMax: number, fields: Shape) {
  return z.object({ id: formId, title: itemTitle(titleMax) }).extend(fields);
}

export const itemIdRequest = z.object({ id: formId });
export const itemCreateResponse = z.object({ id: z.number() });
export const itemSaveResponse = z.object({ updated: z.number() });
export const itemDeleteRequest = z.object({ ids: jsonField(z.array(jsonId).min(1).max(1000)) });
export const itemDeleteResponse = z.object({ deleted: z.array(z.number()) });

/**
 * The five calls of a plugin's items at `${base}list/`, `get/`, `create/`, `save/` and `delete/`
 * (GET for the list, POST for the others), with the item's own schemas.
 */
export function itemEndpoints<
  Base extends string,
  List extends z.ZodType,
  Get extends z.ZodType,
  Create extends z.ZodType,
  Save extends z.ZodType,
>(base: Base, item: { list: List; get: Get; create: Create; save: Save }) {
  return {
    list: endpoint({ method: 'GET', path: `${base}list/` as const, response: item.list }),
    get: endpoint({
      method: 'POST',
      path: `${base}get/` as const,
      request: itemIdRequest,
      response: item.get,
    }),
    create: endpoint({
      method: 'POST',
      path: `${base}create/` as const,
      request: item.create,
      response: itemCreateResponse,
    }),
    save: endpoint({
      method: 'POST',
      path: `${base}save/` as const,
      request: item.save,
      response: itemSaveResponse,
    }),
    delete: endpoint({
      method: 'POST',
      path: `${base}delete/` as const,
      request: itemDeleteRequest,
      response: itemDeleteResponse,
    }),
  };
}
