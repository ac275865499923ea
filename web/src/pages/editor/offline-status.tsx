import { schema } from '@scriptorium/common/editor/schema';
import { Node as PMNode } from 'prosemirror-model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog/dialog';
import { CachedVersionNotice } from '../../components/online/cached-version-notice';
import { useOnline } from '../../components/online/use-online';
import type { DocumentConnection } from './document-connection';

/** The paragraphs of a saved document, as plain text blocks (the offline copy is read, not edited). */
function textBlocks(json: unknown): string[] {
  try {
    const blocks: string[] = [];
    PMNode.fromJSON(schema, json).descendants((node) => {
      if (!node.isTextblock) return true;
      if (node.textContent) blocks.push(node.textContent);
      return false;
    });
    return blocks;
  } catch {
    return [];
  }
}

/**
 * What the editor says about offline work: the cached-version notice while the document comes
 * from this device's queue, that changes are kept here while offline, and after a large or lossy
 * merge of offline work, a notice (the work is shown as the user's suggestions) with the user's
 * offline version to read and copy from.
 */
export function OfflineEditorStatus({ connection }: { connection: DocumentConnection }) {
  const { t } = useTranslation('editor');
  const online = useOnline();
  const [showCopy, setShowCopy] = useState(false);
  const divergence = connection.divergence;
  return (
    <>
      <CachedVersionNotice stale={connection.fromCache} />
      {!online && connection.load === 'ready' ? (
        <p className="editor-offline" data-testid="editor-offline">
          {t('offline.kept')}
        </p>
      ) : null}
      {divergence ? (
        <div className="editor-merge-notice" data-testid="editor-merge-notice">
          <p>
            {t(divergence.suggested ? 'offline.suggested' : 'offline.merged', {
              remote: divergence.remote,
              local: divergence.local,
            })}{' '}
            {divergence.dropped
              ? t(divergence.suggested ? 'offline.restored' : 'offline.dropped', {
                  count: divergence.dropped,
                })
              : null}
          </p>
          <button type="button" onClick={() => setShowCopy(true)}>
            {t('offline.show')}
          </button>{' '}
          <button type="button" onClick={() => connection.dismissDivergence()}>
            {t('offline.dismiss')}
          </button>
        </div>
      ) : null}
      {divergence && showCopy ? (
        <Dialog title={t('offline.copyTitle')} width={720} onClose={() => setShowCopy(false)}>
          <div className="editor-offline-copy" data-testid="editor-offline-copy">
            {textBlocks(divergence.offline).map((text, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list that never reorders
              <p key={index}>{text}</p>
            ))}
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
