// The staff users table with 100,000 users (issue 22): the p99 answer time of
// GET /api/admin/users/?q=<term> (prefix search over username, addresses and names, one page of
// 50 with documents, storage and lock state, the total count, through HTTP as the browser calls
// it) against a bare indexed query of the same run (the username prefix alone, 50 rows, straight
// from the database). Target: p99 <= 100 ms. BENCH_DATABASE_URL runs it on PostgreSQL.

import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { sql } from 'kysely';
import { searchNames } from '../server/src/db/search-names';
import { benchCall, createBenchUser, loginHeaders, startBenchServer } from './lib/server';
import { percentile } from './lib/stats';

const USERS = Number(process.env.BENCH_USERS || 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES || 400);

const FIRST = ['Ada', 'Grace', 'Alan', 'Marie', 'Emmy', 'Kurt', 'Lise', 'Niels', 'Rosalind', 'Paul'];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Curie',
  'Noether',
  'Gödel',
  'Meitner',
  'Bohr',
  'Franklin',
  'Dirac',
];

const server = await startBenchServer('admin');
const { ctx, base } = server;
const { db } = ctx;

// 100,000 users with one address each, written in batches (createUser hashes passwords: far too
// slow for this many, and the search never looks at passwords).
const started = performance.now();
const now = Date.now();
const BATCH = 500;
for (let from = 0; from < USERS; from += BATCH) {
  await db.transaction().execute(async (trx) => {
    const rows = [];
    for (let index = from; index < Math.min(USERS, from + BATCH); index++) {
      const username = `u${String(index).padStart(6, '0')}`;
      const first_name = FIRST[index % FIRST.length];
      const last_name = `${LAST[Math.floor(index / FIRST.length) % LAST.length]}${index % 997}`;
      rows.push({
        username,
        username_lower: username,
        first_name,
        last_name,
        ...searchNames(first_name, last_name),
        password_hash: null,
        is_staff: 0,
        is_active: 1,
        language: null,
        avatar: null,
        created_at: now,
      });
    }
    const inserted = await trx.insertInto('users').values(rows).returning(['id', 'username']).execute();
    await trx
      .insertInto('user_emails')
      .values(
        inserted.map((row) => ({
          user_id: row.id,
          address: `${row.username}@dept${row.id % 50}.example.org`,
          address_lower: `${row.username}@dept${row.id % 50}.example.org`,
          is_primary: 1,
          verified: 1,
        })),
      )
      .execute();
  });
}
const staff = await createBenchUser(ctx, 'benchstaff');
await db.updateTable('users').set({ is_staff: 1 }).where('id', '=', staff.id).execute();
if (ctx.dialect === 'postgres') await sql`analyze`.execute(db);
else await sql`analyze`.execute(db);
console.log(
  `seeded ${USERS} users in ${((performance.now() - started) / 1000).toFixed(1)} s (${ctx.dialect})`,
);
const headers = await loginHeaders(base, 'benchstaff');

/** What staff type: a username, part of an address, a first or last name, a full name, or nothing. */
function term(index: number): string {
  const n = (index * 7919) % USERS;
  switch (index % 6) {
    case 0:
      return `u${String(n)
        .padStart(6, '0')
        .slice(0, 4 + (index % 3))}`;
    case 1:
      return `u${String(n).padStart(6, '0')}@dept`;
    case 2:
      return LAST[index % LAST.length].slice(0, 4) + String(n % 997);
    case 3:
      return `${FIRST[index % FIRST.length]} ${LAST[(index >> 1) % LAST.length].slice(0, 3)}`;
    case 4:
      return FIRST[index % FIRST.length].toLowerCase();
    default:
      return '';
  }
}

async function measure(run: (index: number) => Promise<void>): Promise<number[]> {
  for (let index = 0; index < 20; index++) await run(index); // warm-up
  const times: number[] = [];
  for (let index = 0; index < SEARCHES; index++) {
    const t0 = performance.now();
    await run(index);
    times.push(performance.now() - t0);
  }
  return times;
}

let checked = false;
const endpointTimes = await measure(async (index) => {
  const response = await benchCall(base, adminApi.users, { q: term(index), page: 1 + (index % 3) }, headers);
  if (!response.ok)
    throw new Error(`search for ${term(index)} answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { total: number };
  if (!checked && term(index) && body.total === 0) throw new Error(`no match for ${term(index)}`);
  checked = true;
});

// The baseline: the cheapest useful query the search could be, one index range, no HTTP.
const baselineTimes = await measure(async (index) => {
  const prefix = `u${String((index * 7919) % USERS)
    .padStart(6, '0')
    .slice(0, 4)}`;
  await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('username_lower', '>=', prefix)
    .where('username_lower', '<', `${prefix}\u{10FFFF}`)
    .orderBy('username_lower')
    .limit(50)
    .execute();
});

const p50 = percentile(endpointTimes, 50);
const p99 = percentile(endpointTimes, 99);
const b50 = percentile(baselineTimes, 50);
const b99 = percentile(baselineTimes, 99);
console.log(
  `admin users search (${USERS} users, ${SEARCHES} searches): p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms` +
    ` (target <= 100 ms: ${p99 <= 100 ? 'met' : 'MISSED'})`,
);
console.log(`bare indexed query: p50 ${b50.toFixed(2)} ms, p99 ${b99.toFixed(2)} ms`);
console.log(`ratio p99 endpoint / p99 bare query: ${(p99 / b99).toFixed(1)}x`);
const byKind = ['username', 'address', 'last name', 'full name', 'first name', 'no search'].map((kind, k) => {
  const times = endpointTimes.filter((_, index) => index % 6 === k);
  return `${kind} p99 ${percentile(times, 99).toFixed(1)} ms`;
});
console.log(`by kind: ${byKind.join(', ')}`);
await server.close();
