import { type ImageCategory, normaliseCategoryEdits } from '@scriptorium/common/api/usermedia';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog/dialog';
import { showToast } from '../../components/toast/toast';
import { saveCategories } from './usermedia-api';

interface Row {
  key: number;
  /** 0 for a category that is new in this dialog. */
  id: number;
  title: string;
}

export interface CategoriesDialogProps {
  categories: ImageCategory[];
  online: boolean;
  onClose(): void;
  onSaved(categories: ImageCategory[]): void;
}

let nextKey = 1;

/** Edit categories (spec 5): rename, add (id 0), remove; titles trimmed, empty ones dropped. */
export function CategoriesDialog({ categories, online, onClose, onSaved }: CategoriesDialogProps) {
  const { t } = useTranslation('usermedia');
  const formId = useId();
  const [rows, setRows] = useState<Row[]>(() => [
    ...categories.map((category) => ({ key: nextKey++, id: category.id, title: category.category_title })),
    { key: nextKey++, id: 0, title: '' },
  ]);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (!online) {
      showToast(t('offline'), 'error');
      return;
    }
    setBusy(true);
    try {
      const edits = normaliseCategoryEdits(
        rows.map((row) => row.id),
        rows.map((row) => row.title),
      );
      const entries = await saveCategories(edits);
      showToast(t('categoriesUpdated'), 'success');
      onSaved(entries);
      onClose();
    } catch {
      showToast(navigator.onLine ? t('categoriesNotUpdated') : t('offline'), 'error');
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t('categoriesDialogTitle')}
      onClose={onClose}
      width={420}
      buttons={
        <>
          <button type="submit" form={formId} className="button button-primary" disabled={busy || !online}>
            {t('save')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="form usermedia-category-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void save();
        }}
      >
        <ul className="usermedia-category-list">
          {rows.map((row, index) => (
            <li key={row.key}>
              <input
                type="text"
                value={row.title}
                maxLength={255}
                aria-label={`${t('categoryTitle')} ${index + 1}`}
                placeholder={t('newCategory')}
                onChange={(event) =>
                  setRows((current) =>
                    current.map((item) =>
                      item.key === row.key ? { ...item, title: event.target.value } : item,
                    ),
                  )
                }
              />
              <button
                type="button"
                className="usermedia-icon-button"
                aria-label={t('removeCategory', { title: row.title.trim() || t('newCategory') })}
                onClick={() => setRows((current) => current.filter((item) => item.key !== row.key))}
              >
                <X aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="button"
          onClick={() => setRows((current) => [...current, { key: nextKey++, id: 0, title: '' }])}
        >
          {t('addCategory')}
        </button>
      </form>
    </Dialog>
  );
}
