import { sql } from 'kysely';
import type { Db } from '../db/database';
import { HttpError } from '../http/errors';

/**
 * Fixed-window counters for things that send mail (invitations, confirmations, feedback): one
 * user or one client address must not make the server mail a hundred messages in a second. The
 * counters live in the database (table login_attempts, scopes prefixed by purpose) so that every
 * server process behind a load balancer counts together, on SQLite and PostgreSQL alike.
 */

export interface RateLimit {
  /** What is counted, e.g. `invite-user:12`; at most 200 characters. */
  scope: string;
  max: number;
  windowMs: number;
}

/** A limit was reached: 429 with a translated `{ error, message }`. */
export class RateLimited extends HttpError {
  constructor(messageKey: string) {
    super(429, { error: 'rate_limited', message: { key: messageKey } });
  }
}

/**
 * Counts one use against each limit, atomically per counter (an upsert that answers the new
 * count), and throws RateLimited when any count goes past its maximum. A refused attempt counts
 * too; the window does not move, so the limit ends when the window does.
 */
export async function takeAllowance(
  db: Db,
  limits: readonly RateLimit[],
  messageKey: string,
  now = Date.now(),
): Promise<void> {
  for (const limit of limits) {
    const windowStart = now - limit.windowMs;
    const row = await db
      .insertInto('login_attempts')
      // last_failure_at holds the start of the current window.
      .values({ scope: limit.scope, failures: 1, last_failure_at: now, locked_until: 0 })
      .onConflict((oc) =>
        oc.column('scope').doUpdateSet({
          failures: sql<number>`CASE WHEN login_attempts.last_failure_at <= ${windowStart} THEN 1
            ELSE login_attempts.failures + 1 END`,
          last_failure_at: sql<number>`CASE WHEN login_attempts.last_failure_at <= ${windowStart} THEN ${now}
            ELSE login_attempts.last_failure_at END`,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    if (Number(row.failures) > limit.max) throw new RateLimited(messageKey);
  }
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Invitation mails one user may send. */
export function inviteLimits(userId: number): RateLimit[] {
  return [{ scope: `invite-user:${userId}`, max: 20, windowMs: HOUR }];
}

/** Confirmation mails to one address, and by one user. */
export function confirmationLimits(userId: number, addressDigest: string): RateLimit[] {
  return [
    { scope: `confirm-to:${addressDigest}`, max: 5, windowMs: HOUR },
    { scope: `confirm-user:${userId}`, max: 10, windowMs: HOUR },
  ];
}

/** Feedback posts from one client address, and by one user. */
export function feedbackLimits(clientAddress: string, userId: number | null): RateLimit[] {
  return [
    { scope: `feedback-address:${clientAddress}`, max: 10, windowMs: 10 * MINUTE },
    ...(userId === null ? [] : [{ scope: `feedback-user:${userId}`, max: 10, windowMs: 10 * MINUTE }]),
  ];
}
