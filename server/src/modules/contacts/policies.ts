import { HttpError } from '../../http/errors';

/**
 * Only the two people involved may see or act on an invite or a connection. Commands load rows
 * filtered by the acting user in the query itself; when fewer rows come back than ids were named,
 * some id is not theirs (or does not exist), and both cases answer the same 404.
 */
export function requireAllFound(requestedIds: readonly number[], foundIds: readonly number[]): void {
  const found = new Set(foundIds);
  if (!requestedIds.every((id) => found.has(id))) throw new HttpError(404);
}
