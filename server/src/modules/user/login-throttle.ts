import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from '../../config';
import type { Db } from '../../db/database';

/**
 * Login throttling lives in the database (table login_attempts) so that every server process
 * behind a load balancer sees the same counters.
 */

export const MAX_DELAY_MS = 2000;

export type ThrottleConfig = Pick<
  Config,
  'loginMaxFailures' | 'loginAddressMaxFailures' | 'loginLockSeconds' | 'loginDelayMs'
>;

/** Unknown logins get a scope too, so that a lock does not reveal whether an account exists. */
export function accountScope(userId: number | undefined, login: string): string {
  if (userId !== undefined) return `account:${userId}`;
  const digest = createHash('sha256').update(login.trim().toLowerCase()).digest('hex').slice(0, 40);
  return `login:${digest}`;
}

export function addressScopeKey(address: string): string {
  return `address:${address}`;
}

/**
 * The lock of one account from one client address (django-axes' "combination" lock): failures
 * from an attacker's address lock only that pair, so the owner, from an address that has not
 * failed, still gets in. Guessing from many addresses stays slowed by each address's own limit.
 */
export function pairScopeKey(account: string, address: string): string {
  return `${account}@${address}`;
}

/** Milliseconds until the longest lock among `scopes` ends; 0 when none is locked. */
export async function lockRemaining(db: Db, scopes: string[], now: number): Promise<number> {
  const row = await db
    .selectFrom('login_attempts')
    .select((eb) => eb.fn.max('locked_until').as('until'))
    .where('scope', 'in', scopes)
    .where('locked_until', '>', now)
    .executeTakeFirst();
  const until = row?.until == null ? 0 : Number(row.until);
  return Math.max(0, until - now);
}

/**
 * Counts one failure for the scope and locks it when the count reaches `maxFailures`. Failures
 * older than the lock period, and those before an expired lock, are forgotten.
 */
export async function recordFailure(
  db: Db,
  scope: string,
  maxFailures: number,
  config: ThrottleConfig,
  now: number,
): Promise<number> {
  const forgetBefore = now - config.loginLockSeconds * 1000;
  const row = await db
    .insertInto('login_attempts')
    .values({ scope, failures: 1, last_failure_at: now, locked_until: 0 })
    .onConflict((oc) =>
      oc.column('scope').doUpdateSet({
        failures: sql<number>`CASE
          WHEN login_attempts.locked_until > 0 AND login_attempts.locked_until <= ${now} THEN 1
          WHEN login_attempts.last_failure_at < ${forgetBefore} THEN 1
          ELSE login_attempts.failures + 1 END`,
        locked_until: sql<number>`CASE WHEN login_attempts.locked_until <= ${now} THEN 0
          ELSE login_attempts.locked_until END`,
        last_failure_at: now,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  const failures = Number(row.failures);
  if (maxFailures > 0 && failures >= maxFailures) {
    await db
      .updateTable('login_attempts')
      .set({ locked_until: now + config.loginLockSeconds * 1000 })
      .where('scope', '=', scope)
      .where('locked_until', '<=', now)
      .execute();
  }
  return failures;
}

export async function clearFailures(db: Db, scope: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('scope', '=', scope).execute();
}

/** The pause before a failed login is answered: base * 2^(failures-1), at most 2 s. */
export function failureDelay(failures: number, baseMs: number): number {
  if (baseMs <= 0 || failures <= 0) return 0;
  return Math.min(MAX_DELAY_MS, baseMs * 2 ** (failures - 1));
}
