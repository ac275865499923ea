import {
  BOOK_EXPORT_FORMATS,
  type BookChapter,
  type BookExportFormat,
} from '@scriptorium/common/plugins/books-api';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BookExportError, downloadBookExport } from './books-api';

type ExportState =
  | { kind: 'idle' }
  | { kind: 'busy'; format: BookExportFormat }
  | { kind: 'done'; format: BookExportFormat; leftOut: number[] }
  | { kind: 'failed'; format: BookExportFormat; offline: boolean };

/**
 * Export of the whole book (issue 21): one button per format; the server makes the file from the
 * chapters this user may read. Progress and the outcome are announced; chapters left out are
 * named by their place, since their titles are not the user's to see.
 */
export function BookExport({ bookId, chapters }: { bookId: number; chapters: BookChapter[] }) {
  const { t } = useTranslation(['books', 'export']);
  const headingId = useId();
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const busy = state.kind === 'busy';
  const formatName = (format: BookExportFormat) => t(`export:format.${format}`);
  const places = (numbers: number[]) =>
    numbers.map((number) => t('books:chapterNumber', { number })).join(', ');
  const unreadable = chapters.flatMap((chapter, index) => (chapter.available ? [] : [index + 1]));

  const run = async (format: BookExportFormat) => {
    if (busy) return;
    setState({ kind: 'busy', format });
    try {
      setState({ kind: 'done', format, leftOut: await downloadBookExport(bookId, format) });
    } catch (error) {
      setState({
        kind: 'failed',
        format,
        offline: !(error instanceof BookExportError) && !navigator.onLine,
      });
    }
  };

  return (
    <section className="plugin-section" aria-labelledby={headingId} aria-busy={busy}>
      <h2 id={headingId}>{t('books:export.title')}</h2>
      {chapters.length === 0 ? (
        <p className="plugin-muted">{t('books:export.noChapters')}</p>
      ) : (
        <>
          {unreadable.length > 0 ? (
            <p className="plugin-muted">
              {t('books:export.willLeaveOut', { count: unreadable.length, chapters: places(unreadable) })}
            </p>
          ) : null}
          <fieldset className="wrap-row bare-fieldset">
            <legend className="visually-hidden">{t('books:export.formats')}</legend>
            {BOOK_EXPORT_FORMATS.map((format) => (
              <button
                key={format}
                type="button"
                className="button"
                aria-disabled={busy}
                onClick={() => void run(format)}
              >
                {format === 'pdf' ? t('books:export.pdf') : formatName(format)}
              </button>
            ))}
          </fieldset>
        </>
      )}
      <p role="status" className="plugin-muted">
        {state.kind === 'busy'
          ? t('books:export.busy', { format: formatName(state.format) })
          : state.kind === 'done'
            ? `${t('books:export.done', { format: formatName(state.format) })}${
                state.leftOut.length
                  ? ` ${t('books:export.leftOut', { count: state.leftOut.length, chapters: places(state.leftOut) })}`
                  : ''
              }`
            : ''}
      </p>
      {state.kind === 'failed' ? (
        <p role="alert" className="form-errors">
          {state.offline
            ? t('books:export.offline')
            : t('books:export.failed', { format: formatName(state.format) })}
        </p>
      ) : null}
    </section>
  );
}
