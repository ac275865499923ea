import type { UserRow } from '../db/rows';

/**
 * One shape for every command (`server/src/modules/<area>/commands/`, docs/server.md "Modules"):
 *
 *   verbNoun(ctx: AppContext, actor: Actor, input: { ...the request's fields }, log?): Promise<data>
 *
 * - `ctx` first, never a bare database: the command opens its own transaction with `ctx.db`.
 * - `actor`, the user it acts for (the session's row, or staff): its SQL is scoped to `actor.id`.
 *   Left out when no one acts (a visitor's request, the CLI, a listing that is not anyone's).
 * - `input`, one object named as the endpoint's request (`parseInput`'s answer passes as is).
 * - extras the route hands down (the request's logger for mail after the answer) come last.
 * - It answers the data the route's presenter shapes, never a reply; it refuses by throwing
 *   `HttpError` or `FormError` (`server/src/http/errors.ts`, answered by the error handler), or a
 *   module's own error its route maps (the profile's `fieldError`, an import's refusal).
 *
 * Helpers that run inside another command's transaction take that transaction (`trx`) first
 * instead (e.g. `passInviteRights`): they are steps, not commands.
 */
export type Actor = Pick<UserRow, 'id'>;
