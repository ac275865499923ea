import type { Selectable } from 'kysely';
import type { UsersTable } from './schema';

/** A user as the database holds it: what the session, the websocket and every module pass around. */
export type UserRow = Selectable<UsersTable>;
