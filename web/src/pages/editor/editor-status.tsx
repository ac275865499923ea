import { TITLE_MAX } from '@scriptorium/common/api/documents';
import { countWords } from '@scriptorium/common/editor/text-stats';
import type { Node as PMNode } from 'prosemirror-model';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WaitOverlay } from '../../components/wait-overlay/wait-overlay';
import type { DocumentConnection } from './document-connection';
import { OfflineEditorStatus } from './offline-status';

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

/** The footer below the text: the word count (once typing pauses) and whether all is saved. */
export function EditorFooter({
  connection,
  doc,
}: {
  connection: DocumentConnection;
  doc: PMNode | undefined;
}) {
  const { t } = useTranslation('editor');
  // Once typing pauses, not on every keystroke (the status line renders again). Only the changed
  // blocks are counted again.
  const [words, setWords] = useState(0);
  useEffect(() => {
    if (!doc) return;
    const timer = setTimeout(() => setWords(countWords(doc)), 300);
    return () => clearTimeout(timer);
  }, [doc]);
  if (connection.load !== 'ready') return null;
  const saving = connection.unsaved;
  return (
    <footer className="editor-footer">
      <span>{t('wordCount.status', { count: words })}</span>
      {/* data-from-cache: the copy of the offline queue is shown until the server's arrives. */}
      <span className="editor-save-state" data-saved={!saving} data-from-cache={connection.fromCache}>
        {saving ? t('status.saving') : t('status.saved')}
      </span>
    </footer>
  );
}
