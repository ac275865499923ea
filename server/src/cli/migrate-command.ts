import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { createDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { openPostgres, type RawConnection, withoutPassword } from '../db/transfer/connection';
import { copySite } from '../db/transfer/copy-site';
import { SchemaMismatchError, TargetNotEmptyError, VerificationError } from '../db/transfer/load-site';
import type { Translate } from '../i18n/translate';
import { type Terminal, tableProgress } from './progress';

export interface TransferIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
  /** stderr when it is a terminal: the copy draws a progress bar there. */
  terminal?: Terminal;
}

/** Rows read and written a statement batch, unless --batch-size says otherwise. */
export const DEFAULT_BATCH_SIZE = 1000;

export function batchSizeOption(value: string | undefined): number | undefined {
  if (value === undefined) return DEFAULT_BATCH_SIZE;
  const size = Number(value);
  return Number.isInteger(size) && size > 0 ? size : undefined;
}

export function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.pathname.length > 1;
  } catch {
    return false;
  }
}

/** Opens a PostgreSQL database and migrates it to the latest schema; a clear error when it cannot. */
export async function openTarget(url: string, dataDir: string, io: TransferIo, t: Translate) {
  let connection: RawConnection;
  try {
    connection = await openPostgres(url);
  } catch (error) {
    io.err(t('cli.targetUnreachable', { target: withoutPassword(url), reason: reasonOf(error) }));
    return undefined;
  }
  const { db } = createDatabase({ databaseUrl: url, dataDir });
  try {
    await migrateToLatest(db, 'postgres');
  } finally {
    await db.destroy();
  }
  return connection;
}

export function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/** The one line a failed load ends with (refused target, differing schema, failed verification). */
export function loadFailure(error: unknown, t: Translate): string {
  if (error instanceof TargetNotEmptyError) {
    return t('cli.targetNotEmpty', { table: error.table, count: error.rows });
  }
  if (error instanceof SchemaMismatchError) return t('cli.schemaMismatch', { table: error.table });
  if (error instanceof VerificationError) {
    return t('cli.verificationFailed', {
      table: error.table,
      sourceRows: error.source.rows,
      sourceChecksum: error.source.checksum.slice(0, 16),
      targetRows: error.target.rows,
      targetChecksum: error.target.checksum.slice(0, 16),
    });
  }
  return t('cli.copyFailed', { reason: reasonOf(error) });
}

/**
 * `npm run manage -- migrate --to postgres://...`: the whole site into an empty PostgreSQL
 * database (db/transfer/copy-site.ts says how). Exit codes: 0 copied and verified, 1 refused or failed
 * (nothing committed), 2 usage.
 */
export async function migrateCommand(args: string[], io: TransferIo, t: Translate): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      to: { type: 'string' },
      force: { type: 'boolean', default: false },
      'batch-size': { type: 'string' },
    },
  });
  const to = values.to?.trim() ?? '';
  const batchSize = batchSizeOption(values['batch-size']);
  if (!isPostgresUrl(to)) {
    io.err(t('cli.notPostgresUrl', { url: withoutPassword(to) }));
    return 2;
  }
  if (batchSize === undefined) {
    io.err(t('cli.badBatchSize', { value: values['batch-size'] }));
    return 2;
  }
  const config = loadConfig(io.env);
  if (config.databaseUrl && new URL(config.databaseUrl).toString() === new URL(to).toString()) {
    io.err(t('cli.targetIsSource'));
    return 1;
  }
  const target = await openTarget(to, config.dataDir, io, t);
  if (!target) return 1;
  try {
    io.err(
      t(config.databaseUrl ? 'cli.migrateFromPostgres' : 'cli.migrateFromSqlite', {
        target: withoutPassword(to),
      }),
    );
    const { tables, rows } = await copySite(config, target, {
      force: values.force,
      batchSize,
      progress: tableProgress(io.err, t, io.terminal),
    });
    io.out(t('cli.migrateDone', { tables, count: rows }));
    return 0;
  } catch (error) {
    io.err(loadFailure(error, t));
    return 1;
  } finally {
    await target.close().catch(() => undefined);
  }
}
