import { TITLE_MAX } from '@scriptorium/common/api/documents';
import { countWords } from '@scriptorium/common/editor/text-stats';
import type { Node as PMNode } from 'prosemirror-model';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WaitOverlay } from '../../components/wait-overlay/wait-overlay';
import type { DocumentConnection } from './document-connection';
import { OfflineEditorStatus } from './offline-status';
import { shallowEqual, useConnectionValue } from './use-connection-value';

/** The status region above the text: connection, refusals, rights, notices, the export's wait. */
export function EditorStatus({
  connection,
  title,
  notice,
  exporting,
}: {
  connection: DocumentConnection;
  title: string;
  notice: string;
  exporting: boolean;
}) {
  const { t } = useTranslation('editor');
  const { t: tWs } = useTranslation('ws');
  const { t: tReview } = useTranslation('review');
  // Renders again only when something it says changed (not on every keystroke's save state).
  useConnectionValue(connection, () =>
    JSON.stringify([
      connection.status.state === 'disconnected' && connection.unsaved,
      connection.refused,
      connection.lost,
      connection.load,
      connection.canWrite,
      connection.mustSuggest,
      connection.restored,
      connection.fromCache,
      connection.divergence?.copyId,
      Boolean(connection.divergence),
    ]),
  );
  return (
    <div role="status" className="editor-status">
      {/* The app's connection notice says 'Disconnected'; only this page knows what is unsaved. */}
      {connection.status.state === 'disconnected' && connection.unsaved ? (
        <p className="live-connection-notice" data-unsaved="true">
          {tWs('unsavedWarning')}
        </p>
      ) : null}
      {connection.refused && t(`status.refused.${connection.refused}`, { defaultValue: '' }) ? (
        <p className="editor-error">{t(`status.refused.${connection.refused}`, { max: TITLE_MAX })}</p>
      ) : null}
      {/* A title over the limit (stored before the server checked it) is shown whole, and flagged. */}
      {title.length > TITLE_MAX ? (
        <p className="editor-notice">{t('status.titleTooLong', { max: TITLE_MAX })}</p>
      ) : null}
      {connection.lost ? (
        <p className="editor-error">{t('status.lost', { count: connection.lost })}</p>
      ) : null}
      {connection.load === 'ready' && !connection.canWrite ? <p>{t('status.readOnly')}</p> : null}
      {connection.load === 'ready' && connection.mustSuggest ? <p>{tReview('suggestingOnly')}</p> : null}
      {notice ? <p className="editor-notice">{notice}</p> : null}
      <WaitOverlay active={exporting} message={t('export:busy')} />
      {connection.restored ? <p className="editor-notice">{tReview('restoredNotice')}</p> : null}
      <OfflineEditorStatus connection={connection} />
    </div>
  );
}

/** How long typing pauses before the word count is made again. */
const WORD_COUNT_DELAY_MS = 300;

/**
 * The footer below the text: the word count (once typing pauses) and whether all is saved. It
 * follows the connection itself: a keystroke renders it again only when the save state changes.
 */
export function EditorFooter({ connection }: { connection: DocumentConnection }) {
  const { t } = useTranslation('editor');
  const words = useWordCount(connection);
  const { load, saving, fromCache } = useConnectionValue(
    connection,
    () => ({ load: connection.load, saving: connection.unsaved, fromCache: connection.fromCache }),
    shallowEqual,
  );
  if (load !== 'ready') return null;
  return (
    <footer className="editor-footer">
      <span>{t('wordCount.status', { count: words })}</span>
      {/* data-from-cache: the copy of the offline queue is shown until the server's arrives. */}
      <span className="editor-save-state" data-saved={!saving} data-from-cache={fromCache}>
        {saving ? t('status.saving') : t('status.saved')}
      </span>
    </footer>
  );
}

/**
 * The document's words, counted again once typing pauses (WORD_COUNT_DELAY_MS after the last
 * change): a throttled store of its own, so that no keystroke renders anything for it. Only the
 * changed blocks are counted again (countWords keeps the count per block).
 */
function useWordCount(connection: DocumentConnection): number {
  const [words, setWords] = useState(0);
  useEffect(() => {
    let counted: PMNode | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const count = () => {
      timer = null;
      const doc = connection.session.state?.doc;
      if (!doc || doc === counted) return;
      counted = doc;
      setWords(countWords(doc));
    };
    const changed = () => {
      if (connection.session.state?.doc === counted) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(count, WORD_COUNT_DELAY_MS);
    };
    changed();
    const unsubscribe = connection.subscribe(changed);
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [connection]);
  return words;
}
