import { ADMIN_PAGE_SIZE, type AdminUser, type UserFilter } from '@scriptorium/common/api/admin';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db, Dialect } from '../../db/database';
import { searchFold } from '../../db/search-names';

/**
 * The users table of /admin/users/ for any number of users: the search matches a prefix of the
 * username, of any e-mail address, of the full name ("ada lov") or of the last name, each through
 * its own index (migrations 011 and 019), in any script and without accents (the folded columns are
 * written by the application). Two plans, chosen by how many users match:
 * - a narrow term (at most COUNT_LIMIT matches): the matching ids come from the prefix indexes,
 *   and only those rows are sorted for the page;
 * - a broad term ('ada' may match 10,000 users): the users are walked in username order, each
 *   tested, until the page is full: collecting and sorting every match would cost more.
 */

/** Matches are counted up to this many. */
export const COUNT_LIMIT = 1_000;

/** `column` starts with `prefix` (already lower-cased), in a way the engine's index serves. */
function startsWith(dialect: Dialect, column: string, prefix: string): Expression<SqlBool> {
  const ref = sql.ref(column);
  if (dialect === 'postgres') {
    const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<SqlBool>`${ref} like ${pattern}`;
  }
  // SQLite: BINARY comparison on UTF-8, and U+10FFFF sorts after every other character.
  return sql<SqlBool>`(${ref} >= ${prefix} and ${ref} < ${`${prefix}\u{10FFFF}`})`;
}

/** The search term as each column holds it: names without accents, usernames and addresses lower-cased. */
interface Prefixes {
  lowered: string;
  folded: string;
}

const NAME_COLUMNS = [
  ['users.username_lower', 'lowered'],
  ['users.full_name_lower', 'folded'],
  ['users.last_name_lower', 'folded'],
] as const;

/** Every (user id, way it matched) pair: a user may appear once per column and per address. */
function matchingIds(db: Db, dialect: Dialect, prefix: Prefixes) {
  const [first, ...rest] = NAME_COLUMNS.map(([column, form]) =>
    db
      .selectFrom('users')
      .select('users.id')
      .where(startsWith(dialect, column, prefix[form])),
  );
  return rest
    .reduce((union, query) => union.unionAll(query), first)
    .unionAll(
      db
        .selectFrom('user_emails')
        .select('user_emails.user_id as id')
        .where(startsWith(dialect, 'user_emails.address_lower', prefix.lowered)),
    );
}

/** The same match tested on one row of `users` (for walking the table in username order). */
function matchesRow(db: Db, dialect: Dialect, prefix: Prefixes): Expression<SqlBool> {
  const tests = NAME_COLUMNS.map(([column, form]) => startsWith(dialect, column, prefix[form]));
  const address = sql<SqlBool>`exists ${db
    .selectFrom('user_emails')
    .select(sql`1`.as('one'))
    .where('user_emails.user_id', '=', sql<number>`users.id`)
    .where(startsWith(dialect, 'user_emails.address_lower', prefix.lowered))}`;
  return sql<SqlBool>`(${sql.join([...tests, address], sql` or `)})`;
}

export async function searchUsers(
  db: Db,
  dialect: Dialect,
  input: { q: string; filter: UserFilter; page: number },
): Promise<{ users: AdminUser[]; total: number; capped: boolean }> {
  const term = input.q.trim();
  const prefix: Prefixes = { lowered: term.toLowerCase(), folded: searchFold(term) };
  let base = db.selectFrom('users');
  if (input.filter === 'staff') base = base.where('users.is_staff', '=', 1);
  if (input.filter === 'inactive') base = base.where('users.is_active', '=', 0);

  if (term) {
    // More (user, way) pairs than COUNT_LIMIT: a broad term, walk; fewer: the ids are all here.
    const probeLimit = COUNT_LIMIT + 1;
    const pairs = await matchingIds(db, dialect, prefix).limit(probeLimit).execute();
    if (pairs.length < probeLimit) {
      const ids = [...new Set(pairs.map((pair) => pair.id))];
      base = ids.length > 0 ? base.where('users.id', 'in', ids) : base.where(sql<SqlBool>`1 = 0`);
    } else {
      base = base.where(matchesRow(db, dialect, prefix));
    }
  }

  const rows = await base
    .selectAll('users')
    .orderBy('users.username_lower')
    .limit(ADMIN_PAGE_SIZE)
    .offset((input.page - 1) * ADMIN_PAGE_SIZE)
    .execute();
  // Counting every match of a broad term costs more than the page itself: the count stops at
  // COUNT_LIMIT and the answer says so.
  const count = await db
    .selectFrom(
      base
        .select('users.id')
        .limit(COUNT_LIMIT + 1)
        .as('matches'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  const total = Number(count.count);
  return {
    users: await presentAdminUsers(db, rows),
    total: Math.min(total, COUNT_LIMIT),
    capped: total > COUNT_LIMIT,
  };
}

type UserRowLike = {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  is_staff: number;
  is_active: number;
  last_login_at: number | null;
  created_at: number;
};

/** Account ids with a login lock in force from some address ("account:12@address:..."). */
async function lockedIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('login_attempts')
    .select('scope')
    .where('scope', 'like', 'account:%')
    .where('locked_until', '>', Date.now())
    .execute();
  const wanted = new Set(ids);
  const locked = new Set<number>();
  for (const { scope } of rows) {
    const id = Number(/^account:(\d+)(?:@|$)/.exec(scope)?.[1]);
    if (wanted.has(id)) locked.add(id);
  }
  return locked;
}

/** The rows of one page with their addresses, documents, storage and lock: one query each. */
export async function presentAdminUsers(db: Db, rows: UserRowLike[]): Promise<AdminUser[]> {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const [emails, documents, storage, locked] = await Promise.all([
    db
      .selectFrom('user_emails')
      .select(['user_id', 'address', 'is_primary', 'verified'])
      .where('user_id', 'in', ids)
      .orderBy('is_primary', 'desc')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('documents')
      .select(['owner_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('owner_id', 'in', ids)
      .groupBy('owner_id')
      .execute(),
    db
      .selectFrom('usermedia_images')
      .select(['owner_id', (eb) => eb.fn.sum<number>('size').as('bytes')])
      .where('owner_id', 'in', ids)
      .groupBy('owner_id')
      .execute(),
    lockedIds(db, ids),
  ]);
  const documentCount = new Map(documents.map((row) => [row.owner_id, Number(row.count)]));
  const bytes = new Map(storage.map((row) => [row.owner_id, Number(row.bytes)]));
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    emails: emails
      .filter((email) => email.user_id === row.id)
      .map((email) => ({
        address: email.address,
        primary: email.is_primary === 1,
        verified: email.verified === 1,
      })),
    is_staff: row.is_staff === 1,
    is_active: row.is_active === 1,
    last_login: row.last_login_at === null ? null : Number(row.last_login_at),
    created: Number(row.created_at),
    documents: documentCount.get(row.id) ?? 0,
    storage: bytes.get(row.id) ?? 0,
    locked: locked.has(row.id),
  }));
}

export async function presentAdminUser(db: Db, id: number): Promise<AdminUser | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? (await presentAdminUsers(db, [row]))[0] : undefined;
}
