import type { ListStamp } from '@scriptorium/common/api/bibliography';
import type { BibCategory } from '@scriptorium/common/bibliography/types';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog/dialog';
import { showToast } from '../../components/toast/toast';
import { deleteCategories, saveCategories } from './bibliography-api';

interface Row {
  key: number;
  /** 0 for a category added in this dialog. */
  id: number;
  title: string;
}

export interface CategoriesDialogProps {
  categories: BibCategory[];
  onClose(): void;
  /**
   * The categories after saving; `removed` ids were taken off every entry by the server, which
   * moved the list's stamp (`stamp`, null when nothing was removed).
   */
  onSaved(categories: BibCategory[], removed: number[], stamp: ListStamp | null): void;
}

let nextKey = 1;

/** Add, rename and remove bibliography categories. */
export function CategoriesDialog({ categories, onClose, onSaved }: CategoriesDialogProps) {
  const { t } = useTranslation('bibliography');
  const formId = useId();
  const [rows, setRows] = useState<Row[]>(() => [
    ...categories.map((c) => ({ key: nextKey++, id: c.id, title: c.category_title })),
    { key: nextKey++, id: 0, title: '' },
  ]);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (!navigator.onLine) {
      showToast(t('offline'), 'error');
      return;
    }
    setBusy(true);
    const kept = new Set(rows.filter((r) => r.id !== 0).map((r) => r.id));
    const removed = categories.filter((c) => !kept.has(c.id)).map((c) => c.id);
    const edits = rows.filter((r) => r.title.trim() !== '');
    try {
      const stamp = removed.length > 0 ? await deleteCategories(removed) : null;
      const saved = await saveCategories(
        edits.map((r) => r.id),
        edits.map((r) => r.title.trim()),
      );
      showToast(t('categoriesUpdated'), 'success');
      onSaved(saved, removed, stamp);
      onClose();
    } catch {
      showToast(navigator.onLine ? t('categoriesNotUpdated') : t('offline'), 'error');
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t('editCategories')}
      onClose={onClose}
      width={420}
      buttons={
        <>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {t('submit')}
          </button>
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="bib-categories"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {rows.map((row, index) => (
          <div className="bib-category-row" key={row.key}>
            <input
              type="text"
              value={row.title}
              aria-label={row.id === 0 ? t('newCategory') : t('categoryTitle')}
              placeholder={row.id === 0 ? t('newCategory') : undefined}
              maxLength={255}
              onChange={(event) => {
                const title = event.target.value;
                setRows((current) => {
                  const next = current.map((r) => (r.key === row.key ? { ...r, title } : r));
                  // Typing into the last empty row opens a fresh one below it.
                  if (index === current.length - 1 && title !== '')
                    next.push({ key: nextKey++, id: 0, title: '' });
                  return next;
                });
              }}
            />
            {row.id !== 0 || row.title !== '' ? (
              <button
                type="button"
                className="bib-icon-button"
                aria-label={t('removeCategory', { title: row.title })}
                onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
              >
                <X aria-hidden="true" />
              </button>
            ) : null}
          </div>
        ))}
      </form>
    </Dialog>
  );
}
