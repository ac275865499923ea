import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Times are milliseconds since the epoch (bigint in PostgreSQL, read back
 * as numbers); flags are 0/1 integers so that SQLite and PostgreSQL read the same.
 */
export interface Database {
  users: UsersTable;
  user_emails: UserEmailsTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  flatpages: FlatpagesTable;
  feedback: FeedbackTable;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lower-cased username, unique: logins are case-insensitive. */
  username_lower: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  is_staff: number;
  is_active: number;
  language: string | null;
  avatar: string | null;
  created_at: number;
}

export interface UserEmailsTable {
  id: Generated<number>;
  user_id: number;
  address: string;
  /** Lower-cased address, unique across users. */
  address_lower: string;
  is_primary: number;
  verified: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a leaked database does not leak live sessions. */
  id_hash: string;
  user_id: number;
  expires_at: number;
  created_at: number;
}

export interface LoginAttemptsTable {
  /** "account:<user id>" or "address:<ip>". */
  scope: string;
  failures: number;
  last_failure_at: number;
  locked_until: number;
}

export interface FlatpagesTable {
  id: Generated<number>;
  url: string;
  title: string;
  content: string;
}

export interface FeedbackTable {
  id: Generated<number>;
  user_id: number | null;
  message: string;
  created_at: number;
}
