import { createHash, randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { changeStamp, type Db } from '../db/database';
import { keptWhileUnchanged } from '../db/kept';
import { preparedQuery } from '../db/prepared';
import type { UserRow } from '../db/rows';
import { endLiveSessions } from '../ws/hub';
import { isWsPath } from '../ws/paths';
import { type BearerAuthenticator, bearerTokenOf } from './bearer';
import { baseCookieOptions, SESSION_COOKIE } from './cookies';
import { HttpError } from './errors';

/** Server-side rows live two weeks whether or not "Remember me" was ticked. */
export const SESSION_LIFETIME_MS = 14 * 24 * 3600 * 1000;

export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/** Paths whose handlers may need the user (the API, the websocket endpoints); static files never do. */
function needsUser(ctx: AppContext, url: string): boolean {
  return url.startsWith('/api/') || isWsPath(ctx.config, url.split('?')[0]);
}

/** One query on the hot path of every API call: the session row and its user together. */
const sessionUserQuery = preparedQuery((db: Db, hash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select('sessions.expires_at as session_expires_at')
    .where('sessions.id_hash', '=', hash),
);

/**
 * The session lookup's row per session hash while the database is unchanged (SQLite): a logout,
 * an expiry's delete, a deactivation or any other write, here or in another process, makes it
 * stale, so a kept row is never older than the database.
 */
const keptSessionRows = keptWhileUnchanged<string, SessionUserRow | undefined>(10_000);
type SessionUserRow = Awaited<ReturnType<typeof sessionUserQuery>>[number];

type SessionLookup = { user: UserRow; hash: string } | null;

/** A session row's user, or null (no row, a deactivated user); 'expired' for a row to delete. */
function sessionOfRow(row: SessionUserRow | undefined, hash: string): SessionLookup | 'expired' {
  if (!row) return null;
  // A copy per request: the kept row is never handed out itself.
  const { session_expires_at: expiresAt, ...user } = row;
  if (expiresAt <= Date.now()) return 'expired';
  return user.is_active ? { user, hash } : null;
}

async function userForSessionId(
  ctx: AppContext,
  sessionId: string | undefined,
  stamp = changeStamp(ctx.db),
): Promise<SessionLookup> {
  if (!sessionId) return null;
  const hash = hashSessionId(sessionId);
  const row = await keptSessionRows(
    ctx.db,
    hash,
    async () => (await sessionUserQuery(ctx.db, hash))[0],
    stamp,
  );
  const session = sessionOfRow(row, hash);
  if (session !== 'expired') return session;
  await ctx.db.deleteFrom('sessions').where('id_hash', '=', hash).execute();
  return null;
}

/** userForSessionId at once, when the row is kept with this stamp; undefined when it must be read. */
function keptUserForSessionId(ctx: AppContext, sessionId: string | undefined, stamp: string | undefined) {
  if (!sessionId) return null;
  const hash = hashSessionId(sessionId);
  const kept = keptSessionRows.peek(ctx.db, hash, stamp);
  const session = kept && sessionOfRow(kept.value, hash);
  return session === 'expired' ? undefined : session;
}

/** The hash of the session cookie the request carries, valid or not. */
function hashOfCookie(request: FastifyRequest): string | null {
  const sessionId = request.cookies[SESSION_COOKIE];
  return sessionId ? hashSessionId(sessionId) : null;
}

/** Resolves the user from a raw Cookie header: the websocket endpoint authenticates with it. */
export async function userFromCookieHeader(
  ctx: AppContext,
  header: string | undefined,
): Promise<UserRow | null> {
  if (!header) return null;
  const cookies = fastifyCookie.parse(header);
  return (await userForSessionId(ctx, cookies[SESSION_COOKIE]))?.user ?? null;
}

/** The user of the request's session cookie, on a path the session hook skips (the app shell). */
export async function sessionUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  return (await userForSessionId(ctx, request.cookies[SESSION_COOKIE]))?.user ?? null;
}

/** The logged-in user, or a 401 for visitors. Call it first in every login-only route or policy. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new HttpError(401);
  return request.user;
}

/**
 * Starts a session: a new random id (never reused across logins), only its hash stored. A session
 * this browser still held (another account logged in before) ends first, sockets included: one
 * browser, one login.
 */
export async function startSession(
  ctx: AppContext,
  reply: FastifyReply,
  userId: number,
  remember: boolean,
): Promise<void> {
  const previous = reply.request.sessionHash ?? hashOfCookie(reply.request);
  if (previous) {
    await ctx.db.deleteFrom('sessions').where('id_hash', '=', previous).execute();
    await endLiveSessions(ctx, [previous]);
  }
  const sessionId = randomBytes(32).toString('base64url');
  const now = Date.now();
  // Expired rows of everybody go on each login: cheap with the index, and no cron job to run.
  await ctx.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  await ctx.db
    .insertInto('sessions')
    .values({
      id_hash: hashSessionId(sessionId),
      user_id: userId,
      expires_at: now + SESSION_LIFETIME_MS,
      created_at: now,
    })
    .execute();
  // Shown to staff in the users table (/admin/users/).
  await ctx.db.updateTable('users').set({ last_login_at: now }).where('id', '=', userId).execute();
  reply.setCookie(SESSION_COOKIE, sessionId, {
    ...baseCookieOptions(ctx.config),
    httpOnly: true,
    // Without Max-Age the browser drops the cookie when it closes ("Remember me" off).
    ...(remember ? { maxAge: SESSION_LIFETIME_MS / 1000 } : {}),
  });
}

export async function endSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  if (request.sessionHash) {
    await ctx.db.deleteFrom('sessions').where('id_hash', '=', request.sessionHash).execute();
    await endLiveSessions(ctx, [request.sessionHash]);
  }
  reply.clearCookie(SESSION_COOKIE, { ...baseCookieOptions(ctx.config), httpOnly: true });
  request.user = null;
  request.sessionHash = null;
}

export function registerSession(
  app: FastifyInstance,
  ctx: AppContext,
  authenticateBearer: BearerAuthenticator,
): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionHash', null);
  app.decorateRequest('changeStamp', undefined);
  app.decorateRequest('apiToken', null);
  // Answers about a logged-in user must not stay in a shared or back-button cache.
  // A callback, not async: on every answer, and an async hook costs a promise and a turn.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      request.url.startsWith('/api/') &&
      (request.user || request.sessionHash || reply.hasHeader('set-cookie'))
    ) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
  // A callback, not async, and no promise at all when the session's row is kept: every API call
  // passes here, and the configuration's answer is about as cheap as this hook (issue 23).
  app.addHook('onRequest', (request, reply, done) => {
    if (!ctx.state.ready || !needsUser(ctx, request.url)) return done();
    const stamp = changeStamp(ctx.db);
    request.changeStamp = stamp;
    // A personal access token (issue 57) replaces the cookie session: the token alone decides.
    const bearer = bearerTokenOf(request);
    if (bearer !== undefined) {
      authenticateBearer(ctx, bearer, request.routeOptions.config.tokenScope, reply).then((outcome) => {
        if (outcome instanceof Error) return done(outcome);
        request.user = outcome.user;
        request.apiToken = outcome.token;
        done();
      }, done);
      return;
    }
    const sessionId = request.cookies[SESSION_COOKIE];
    const use = (session: SessionLookup) => {
      if (session) {
        request.user = session.user;
        request.sessionHash = session.hash;
      }
      done();
    };
    const kept = keptUserForSessionId(ctx, sessionId, stamp);
    if (kept !== undefined) return use(kept);
    userForSessionId(ctx, sessionId, stamp).then(use, done);
  });
}
