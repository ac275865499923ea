import type { LoadProgress } from '../db/transfer/load-site';
import type { Translate } from '../i18n/translate';

/** Where a terminal's progress bar is drawn (process.stderr when it is a TTY). */
export interface Terminal {
  write(text: string): boolean;
  columns?: number;
}

const BAR_WIDTH = 30;

/**
 * Progress of a copy on stderr: a line per table with its rows when done; on a terminal also a
 * bar for the table being copied, redrawn in place.
 */
export function tableProgress(err: (line: string) => void, t: Translate, terminal?: Terminal): LoadProgress {
  let table = '';
  let total = 0;
  let copied = 0;
  const draw = () => {
    if (!terminal) return;
    const share = total === 0 ? 1 : Math.min(1, copied / total);
    const filled = Math.round(share * BAR_WIDTH);
    terminal.write(
      `\r[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ${table} ${copied}/${total}\u001b[K`,
    );
  };
  return {
    tableStarted(name, rows) {
      table = name;
      total = rows;
      copied = 0;
      draw();
    },
    rowsCopied(rows) {
      copied += rows;
      draw();
    },
    tableDone(name, rows) {
      // Clear the bar's line first: the table's line takes its place.
      terminal?.write('\r\u001b[K');
      err(t('cli.tableCopied', { table: name, count: rows }));
    },
  };
}
