import type { Config } from './config';
import type { Db, Dialect } from './db/database';
import type { Mailer } from './mail/mailer';

/** Everything a request handler, command or CLI needs; built once per process (or per test suite). */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  mailer: Mailer;
  /**
   * ready: false while the process starts or migrates (the API answers 405/503 until then);
   * stopping: true from SIGTERM on, so that the balancer's readiness check sends no one new here.
   */
  state: { ready: boolean; stopping?: boolean };
}
