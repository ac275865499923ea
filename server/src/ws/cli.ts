import { negotiateLanguage } from '@scriptorium/common/i18n/languages';
import { SYSTEM_MESSAGE_MAX_LENGTH } from '@scriptorium/common/ws/messages';
import { ZodError } from 'zod';
import { loadConfig } from '../config';
import { translator } from '../i18n/translate';
import { NoServerReachedError, sendSystemMessage } from './system-message';

export interface CommandIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * `npm run manage -- system-message "text"`: every connected user sees the text. The words may
 * also come unquoted. Exit codes: 0 sent, 1 no server reached, 2 usage.
 */
export async function systemMessageCommand(_db: unknown, args: string[], io: CommandIo): Promise<number> {
  // The operator's language, from the POSIX locale as for the other commands.
  const locale = io.env.LC_ALL || io.env.LC_MESSAGES || io.env.LANG || '';
  const t = translator('ws', negotiateLanguage(locale.split('.')[0].replace('_', '-') || undefined));
  const text = args.join(' ');
  if (!text.trim()) {
    io.err(t('cliUsage'));
    return 2;
  }
  try {
    const processes = await sendSystemMessage({ config: loadConfig(io.env) }, text);
    io.out(t('cliSent', { count: processes }));
    return 0;
  } catch (error) {
    if (error instanceof ZodError) {
      io.err(t('cliInvalid', { max: SYSTEM_MESSAGE_MAX_LENGTH }));
      return 2;
    }
    if (error instanceof NoServerReachedError) {
      io.err(t('cliNoServer'));
      return 1;
    }
    throw error;
  }
}
