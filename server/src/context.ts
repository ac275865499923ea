import type { Config } from './config';
import type { Db, Dialect } from './db/database';
import type { Mailer } from './mail/mailer';

/** Everything a request handler, command or CLI needs; built once per process (or per test suite). */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  mailer: Mailer;
  /** False while the process starts or migrates: the API answers 405/503 until then. */
  state: { ready: boolean };
}
