import type { AdminLogEntry, AuditAction } from '@scriptorium/common/api/admin';
import { ADMIN_PAGE_SIZE, adminLogEntry } from '@scriptorium/common/api/admin';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/rows';

/**
 * Writes one line of the audit log. Called inside the action's transaction where there is one, so
 * that an action and its line are committed together.
 */
export async function audit(
  db: Db,
  actor: Pick<UserRow, 'id' | 'username'>,
  action: AuditAction,
  target: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: actor.id,
      actor_name: actor.username,
      action,
      target: target.slice(0, 300),
      details: JSON.stringify(details),
      created_at: Date.now(),
    })
    .execute();
}

/** Newest first, one page. */
export async function listAuditLog(
  db: Db,
  page: number,
): Promise<{ entries: AdminLogEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('audit_log')
      .leftJoin('users', 'users.id', 'audit_log.actor_id')
      .select([
        'audit_log.id',
        'audit_log.actor_name',
        'users.username',
        'audit_log.action',
        'audit_log.target',
        'audit_log.details',
        'audit_log.created_at',
      ])
      .orderBy('audit_log.created_at', 'desc')
      .orderBy('audit_log.id', 'desc')
      .limit(ADMIN_PAGE_SIZE)
      .offset((page - 1) * ADMIN_PAGE_SIZE)
      .execute(),
    db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  const entries = rows.flatMap((row) => {
    const parsed = adminLogEntry.safeParse({
      id: row.id,
      // The current name of the actor, else the one they had when they acted (account gone).
      actor: row.username ?? row.actor_name,
      action: row.action,
      target: row.target,
      details: JSON.parse(row.details) as unknown,
      created: Number(row.created_at),
    });
    return parsed.success ? [parsed.data] : [];
  });
  return { entries, total: Number(count.count) };
}
