import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type Language, negotiateLanguage } from '@scriptorium/common/i18n/languages';
import { z } from 'zod';
import { loadConfig } from '../config';
import { createDatabase, type Db } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { type Translate, translator } from '../i18n/translate';
import { saveFlatpage } from '../modules/base/commands/save-flatpage';
import { claimPendingInvitesForEmail } from '../modules/contacts/commands/claim-invites';
import { createUser, InvalidUsernameError, UserConflictError } from '../modules/user/commands/create-user';
import { sweepFiles } from '../modules/usermedia/file-sweep';
import { systemMessageCommand } from '../ws/cli';
import { backupCommand, restoreCommand } from './backup-command';
import { migrateCommand } from './migrate-command';
import type { Terminal } from './progress';

export interface ManageIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
  /** stderr when it is a terminal: long commands draw a progress bar there. */
  terminal?: Terminal;
}

/** The operator's language from the POSIX locale (LC_ALL, LC_MESSAGES, LANG: "de_DE.UTF-8"). */
export function cliLanguage(env: NodeJS.ProcessEnv): Language {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return negotiateLanguage(locale.split('.')[0].replace('_', '-') || undefined);
}

/** A usage mistake: printed with the usage text, exit code 2. */
class UsageError extends Error {}

function required(values: Record<string, unknown>, name: string, t: Translate): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UsageError(t('cli.missingOption', { option: name }));
  }
  return value;
}

async function createUserCommand(db: Db, args: string[], io: ManageIo, t: Translate): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      staff: { type: 'boolean', default: false },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
  });
  const username = required(values, 'username', t);
  const email = required(values, 'email', t).trim();
  const password = required(values, 'password', t);
  if (!z.email().safeParse(email).success) {
    io.err(t('cli.invalidEmail', { email }));
    return 1;
  }
  try {
    const user = await createUser(
      { db },
      {
        username,
        email,
        password,
        isStaff: values.staff,
        firstName: values['first-name'],
        lastName: values['last-name'],
        emailVerified: true,
      },
    );
    // The address is verified from the start: contact invites sent to it now reach the new user.
    await claimPendingInvitesForEmail(db, user.id, email);
    io.out(
      t(user.is_staff ? 'cli.staffUserCreated' : 'cli.userCreated', { username: user.username, id: user.id }),
    );
    return 0;
  } catch (error) {
    if (error instanceof InvalidUsernameError) {
      io.err(t('cli.usernameInvalid', { username }));
      return 1;
    }
    if (!(error instanceof UserConflictError)) throw error;
    io.err(
      error.field === 'username' ? t('cli.usernameTaken', { username }) : t('cli.emailTaken', { email }),
    );
    return 1;
  }
}

async function flatpageCommand(db: Db, args: string[], io: ManageIo, t: Translate): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { url: { type: 'string' }, title: { type: 'string' }, 'content-file': { type: 'string' } },
  });
  const url = required(values, 'url', t);
  const title = required(values, 'title', t);
  const file = required(values, 'content-file', t);
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    io.err(t('cli.fileUnreadable', { file, reason: error instanceof Error ? error.message : String(error) }));
    return 1;
  }
  const saved = await saveFlatpage({ db }, { url, title, content });
  io.out(t(saved.outcome === 'created' ? 'cli.flatpageCreated' : 'cli.flatpageReplaced', { url: saved.url }));
  return 0;
}

async function sweepFilesCommand(db: Db, args: string[], io: ManageIo, t: Translate): Promise<number> {
  parseArgs({ args, options: {} });
  const result = await sweepFiles(db, loadConfig(io.env).dataDir);
  io.out(t('cli.filesSwept', { ...result }));
  return 0;
}

const COMMANDS = {
  createuser: createUserCommand,
  'sweep-files': sweepFilesCommand,
  flatpage: flatpageCommand,
  'system-message': systemMessageCommand,
  migrate: (_db: Db, args: string[], io: ManageIo, t: Translate) => migrateCommand(args, io, t),
  backup: (_db: Db, args: string[], io: ManageIo, t: Translate) => backupCommand(args, io, t),
  restore: (_db: Db, args: string[], io: ManageIo, t: Translate) => restoreCommand(args, io, t),
} as const;

function isCommand(name: string | undefined): name is keyof typeof COMMANDS {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

/** `npm run manage -- <command> [options]`; returns the exit code. Migrates the database first. */
export async function runManage(argv: string[], io: ManageIo): Promise<number> {
  const t = translator('server', cliLanguage(io.env));
  const [name, ...args] = argv;
  if (!isCommand(name)) {
    if (name && name !== 'help' && name !== '--help') io.err(t('cli.unknownCommand', { command: name }));
    io.err(t('cli.usage'));
    return name && name !== 'help' && name !== '--help' ? 2 : 0;
  }
  const config = loadConfig(io.env);
  const { db, dialect } = createDatabase(config);
  try {
    await migrateToLatest(db, dialect);
    return await COMMANDS[name](db, args, io, t);
  } catch (error) {
    // parseArgs reports unknown options with a TypeError carrying an ERR_PARSE_ARGS_* code.
    const code = (error as { code?: unknown }).code;
    if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.err((error as Error).message);
      io.err(t('cli.usage'));
      return 2;
    }
    throw error;
  } finally {
    await db.destroy();
  }
}
