import { ADMIN_PAGE_SIZE, type AdminFeedbackItem } from '@scriptorium/common/api/admin';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { HttpError } from '../../../http/errors';
import { audit } from '../audit';

type Staff = Pick<UserRow, 'id' | 'username'>;

/** Reports from the feedback tab, newest first: the open ones, the done ones, or all. */
export async function listFeedback(
  ctx: AppContext,
  input: { filter: 'open' | 'done' | 'all'; page: number },
): Promise<{ items: AdminFeedbackItem[]; total: number }> {
  let base = ctx.db.selectFrom('feedback');
  if (input.filter === 'open') base = base.where('feedback.done_at', 'is', null);
  if (input.filter === 'done') base = base.where('feedback.done_at', 'is not', null);
  const [rows, count] = await Promise.all([
    base
      .leftJoin('users', 'users.id', 'feedback.user_id')
      .leftJoin('user_emails', (join) =>
        join.onRef('user_emails.user_id', '=', 'feedback.user_id').on('user_emails.is_primary', '=', 1),
      )
      .select([
        'feedback.id',
        'feedback.message',
        'feedback.created_at',
        'feedback.done_at',
        'users.username',
        'user_emails.address',
      ])
      .orderBy('feedback.created_at', 'desc')
      .orderBy('feedback.id', 'desc')
      .limit(ADMIN_PAGE_SIZE)
      .offset((input.page - 1) * ADMIN_PAGE_SIZE)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      message: row.message,
      created: Number(row.created_at),
      username: row.username ?? null,
      email: row.address ?? null,
      done: row.done_at === null ? null : Number(row.done_at),
    })),
    total: Number(count.count),
  };
}

export async function setFeedbackDone(
  ctx: AppContext,
  staff: Staff,
  input: { id: number; done: boolean },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('feedback').select('id').where('id', '=', input.id).executeTakeFirst();
    if (!row) throw new HttpError(404);
    await trx
      .updateTable('feedback')
      .set(input.done ? { done_at: Date.now(), done_by: staff.id } : { done_at: null, done_by: null })
      .where('id', '=', input.id)
      .execute();
    await audit(trx, staff, input.done ? 'feedback.done' : 'feedback.reopen', `#${input.id}`);
  });
}
