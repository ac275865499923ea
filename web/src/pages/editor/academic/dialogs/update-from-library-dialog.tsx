import { libraryUpdates, replaceInBibliography } from '@scriptorium/common/editor/academic-commands';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../../components/dialog/dialog';
import { useLibrary } from './citation-library';
import type { DialogProps } from './shared';

/**
 * File > Update bibliography from library: the document's copies of the user's own entries take
 * the library's current data (co-authors' entries stay; spec: only on request).
 */
export function UpdateFromLibraryDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const { userId, library, failed } = useLibrary();
  const [updated, setUpdated] = useState<number | null>(null);
  const updates = useMemo(
    () => (library ? libraryUpdates(view.state.doc, userId, library) : null),
    [library, userId, view.state.doc],
  );
  const update = () => {
    if (!updates?.size) return;
    view.dispatch(replaceInBibliography(view.state.tr, updates));
    setUpdated(updates.size);
  };
  const pending = updated === null && updates && updates.size > 0;
  let message: string;
  if (failed) message = t('academic.fromLibrary.failed');
  else if (updated !== null) message = t('academic.fromLibrary.updated', { count: updated });
  else if (!updates) message = t('academic.fromLibrary.loading');
  else if (!updates.size) message = t('academic.fromLibrary.none');
  else message = t('academic.fromLibrary.differ', { count: updates.size });
  return (
    <Dialog
      title={t('academic.fromLibrary.title')}
      onClose={onClose}
      width={480}
      buttons={
        <>
          <button type="button" className="button" onClick={onClose}>
            {pending ? t('academic.cancel') : t('settings.done')}
          </button>
          {pending ? (
            <button type="button" className="button button-primary" onClick={update}>
              {t('academic.update')}
            </button>
          ) : null}
        </>
      }
    >
      <p role={failed ? 'alert' : 'status'}>{message}</p>
    </Dialog>
  );
}
