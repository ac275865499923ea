import type { AccessEntry, AccessRight } from '@scriptorium/common/api/documents';
import type { AppContext } from '../../../context';
import type { Actor } from '../../command';
import { displayName, NAME_COLUMNS } from '../../user/presenters';

/**
 * Every right of a document the user owns. The owner is part of each query, like in every other
 * documents command, so that a policy slip can never list another owner's collaborators.
 */
export async function getAccess(
  ctx: AppContext,
  owner: Actor,
  input: { id: number },
): Promise<AccessEntry[]> {
  const users = await ctx.db
    .selectFrom('document_access')
    .innerJoin('documents', 'documents.id', 'document_access.document_id')
    .innerJoin('users', 'users.id', 'document_access.user_id')
    .select(['users.id', ...NAME_COLUMNS, 'document_access.rights'])
    .where('document_access.document_id', '=', input.id)
    .where('documents.owner_id', '=', owner.id)
    .orderBy('document_access.id')
    .execute();
  const invites = await ctx.db
    .selectFrom('document_access')
    .innerJoin('documents', 'documents.id', 'document_access.document_id')
    .innerJoin('user_invites', 'user_invites.id', 'document_access.invite_id')
    .leftJoin('users', 'users.id', 'user_invites.to_user_id')
    .select(['user_invites.id', 'user_invites.email', ...NAME_COLUMNS, 'document_access.rights'])
    .where('document_access.document_id', '=', input.id)
    .where('documents.owner_id', '=', owner.id)
    .orderBy('document_access.id')
    .execute();
  return [
    ...users.map((row) => ({
      holder_type: 'user' as const,
      holder_id: row.id,
      name: displayName(row),
      email: null,
      rights: row.rights as AccessRight,
    })),
    ...invites.map((row) => ({
      holder_type: 'userinvite' as const,
      holder_id: row.id,
      // An invite by username names the user; an invite by address shows the address.
      name: row.username
        ? displayName({
            username: row.username,
            first_name: row.first_name ?? '',
            last_name: row.last_name ?? '',
          })
        : (row.email ?? ''),
      email: row.email,
      rights: row.rights as AccessRight,
    })),
  ];
}
