import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { ArchiveError, backupSite, DataDirNotEmptyError, restoreSite } from '../db/transfer/archive';
import { openPostgres, openSqlite, type RawConnection, sqliteFile } from '../db/transfer/connection';
import type { Translate } from '../i18n/translate';
import { batchSizeOption, loadFailure, reasonOf, type TransferIo } from './migrate-command';
import { tableProgress } from './progress';

/**
 * `npm run manage -- backup FILE`: the site (database snapshot and DATA_DIR's files) into one
 * archive (db/transfer/archive.ts), while the server runs. Exit codes: 0 written, 1 failed, 2 usage.
 */
export async function backupCommand(args: string[], io: TransferIo, t: Translate): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'batch-size': { type: 'string' } },
  });
  const batchSize = batchSizeOption(values['batch-size']);
  if (positionals.length !== 1 || batchSize === undefined) {
    io.err(t('cli.usage'));
    return 2;
  }
  const file = path.resolve(positionals[0]);
  if (existsSync(file)) {
    io.err(t('cli.backupExists', { file }));
    return 1;
  }
  try {
    const written = await backupSite(loadConfig(io.env), file, batchSize);
    io.out(
      t('cli.backupWritten', { file, tables: written.tables, count: written.rows, files: written.files }),
    );
    return 0;
  } catch (error) {
    io.err(t('cli.backupFailed', { reason: reasonOf(error) }));
    return 1;
  }
}

/**
 * `npm run manage -- restore FILE [--force]`: an archive of `backup` into this site's database
 * (empty unless --force) and DATA_DIR (its media empty), verified as migrate is. Exit codes: 0
 * restored, 1 refused or failed (nothing left written), 2 usage.
 */
export async function restoreCommand(args: string[], io: TransferIo, t: Translate): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false }, 'batch-size': { type: 'string' } },
  });
  const batchSize = batchSizeOption(values['batch-size']);
  if (positionals.length !== 1 || batchSize === undefined) {
    io.err(t('cli.usage'));
    return 2;
  }
  const file = path.resolve(positionals[0]);
  if (!existsSync(file)) {
    io.err(t('cli.archiveMissing', { file }));
    return 1;
  }
  const config = loadConfig(io.env);
  let target: RawConnection;
  try {
    target = config.databaseUrl
      ? await openPostgres(config.databaseUrl)
      : openSqlite(sqliteFile(config.dataDir));
  } catch (error) {
    io.err(t('cli.copyFailed', { reason: reasonOf(error) }));
    return 1;
  }
  try {
    const restored = await restoreSite(file, config, target, {
      force: values.force,
      batchSize,
      progress: tableProgress(io.err, t, io.terminal),
    });
    io.out(t('cli.restored', { tables: restored.tables, count: restored.rows, files: restored.files }));
    return 0;
  } catch (error) {
    if (error instanceof ArchiveError) {
      io.err(
        t(error.kind === 'foreign' ? 'cli.archiveForeign' : 'cli.archiveDamaged', {
          file,
          detail: error.detail,
        }),
      );
    } else if (error instanceof DataDirNotEmptyError) {
      io.err(t('cli.dataDirNotEmpty', { part: error.part }));
    } else {
      io.err(loadFailure(error, t));
    }
    return 1;
  } finally {
    await target.close().catch(() => undefined);
  }
}
