import type { AccessSaveItem } from '@scriptorium/common/api/documents';
import type { AppContext } from '../../../context';
import { FormError } from '../../../http/errors';
import type { Actor } from '../../command';
import { contactIdsAmong, invitesAmong } from '../../contacts/queries';
import { requireOwner } from '../policies';

/**
 * Replaces every right of a document in one transaction (owner only). Rights may only go to the
 * owner's contacts and to invites the owner sent; anything else fails the whole save with a 400.
 */
export async function saveAccess(
  ctx: AppContext,
  owner: Actor,
  input: { id: number; access: AccessSaveItem[] },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await requireOwner(trx, owner.id, input.id);
    const userIds = new Map<number, AccessSaveItem>();
    const inviteIds = new Map<number, AccessSaveItem>();
    for (const item of input.access) {
      (item.holder_type === 'user' ? userIds : inviteIds).set(item.holder_id, item);
    }

    const contacts = userIds.size === 0 ? [] : await contactIdsAmong(trx, owner.id, [...userIds.keys()]);
    const invites =
      inviteIds.size === 0 ? [] : await invitesAmong(trx, [...inviteIds.keys()], 'by_user_id', owner.id);
    if (contacts.length !== userIds.size || invites.length !== inviteIds.size) {
      throw new FormError(400, [], { access: [{ key: 'form.invalidChoice' }] });
    }

    const existing = await trx
      .selectFrom('document_access')
      .select(['id', 'user_id', 'invite_id', 'rights'])
      .where('document_id', '=', input.id)
      .execute();
    const now = Date.now();
    for (const row of existing) {
      const wanted =
        row.user_id !== null
          ? userIds.get(row.user_id)
          : row.invite_id !== null
            ? inviteIds.get(row.invite_id)
            : undefined;
      if (!wanted) {
        await trx.deleteFrom('document_access').where('id', '=', row.id).execute();
        continue;
      }
      if (wanted.rights !== row.rights) {
        await trx
          .updateTable('document_access')
          .set({ rights: wanted.rights })
          .where('id', '=', row.id)
          .execute();
      }
      if (row.user_id !== null) userIds.delete(row.user_id);
      if (row.invite_id !== null) inviteIds.delete(row.invite_id);
    }
    const inserts = [
      ...[...userIds.values()].map((item) => ({
        user_id: item.holder_id,
        invite_id: null,
        rights: item.rights,
      })),
      ...[...inviteIds.values()].map((item) => ({
        user_id: null,
        invite_id: item.holder_id,
        rights: item.rights,
      })),
    ];
    if (inserts.length > 0) {
      // A new collaborator finds the document in their top folder.
      await trx
        .insertInto('document_access')
        .values(inserts.map((row) => ({ ...row, document_id: input.id, path: '', created_at: now })))
        .execute();
    }
  });
}
