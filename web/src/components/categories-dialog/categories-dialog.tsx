import { type CategoryEdit, normaliseCategoryEdits } from '@scriptorium/common/api/usermedia';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { Dialog } from '../dialog/dialog';
import { showToast } from '../toast/toast';
import './categories-dialog.css';

interface Row {
  key: number;
  /** 0 for a category added in this dialog (spec 5: a new category has id 0). */
  id: number;
  title: string;
}

/** The texts, from the namespace of the screen that opens the dialog. */
export interface CategoriesDialogTexts {
  title: string;
  categoryTitle: string;
  newCategory: string;
  addCategory: string;
  removeCategory(title: string): string;
  save: string;
  cancel: string;
  updated: string;
  notUpdated: string;
  offline: string;
}

export interface CategoryChanges {
  /** Every category kept or added, in the order shown: titles trimmed, empty ones dropped. */
  edits: CategoryEdit[];
  /** Ids of existing categories the user removed. */
  removed: number[];
}

export interface CategoriesDialogProps {
  categories: readonly { id: number; category_title: string }[];
  online: boolean;
  texts: CategoriesDialogTexts;
  /** Sends the changes; the dialog reports the outcome and closes once it succeeded. */
  onSave(changes: CategoryChanges): Promise<void>;
  onClose(): void;
}

let nextKey = 1;

const emptyRow = (): Row => ({ key: nextKey++, id: 0, title: '' });

/**
 * Add, rename and remove categories: one editor for images and bibliography. There is always an
 * empty row at the end, so typing a new category needs no click; 'Add category' adds more rows.
 */
export function CategoriesDialog({ categories, online, texts, onSave, onClose }: CategoriesDialogProps) {
  const formId = useId();
  const [rows, setRows] = useState<Row[]>(() => [
    ...categories.map((category) => ({ key: nextKey++, id: category.id, title: category.category_title })),
    emptyRow(),
  ]);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (!online || !navigator.onLine) {
      showToast(texts.offline, 'error');
      return;
    }
    setBusy(true);
    const kept = new Set(rows.map((row) => row.id));
    const changes: CategoryChanges = {
      edits: normaliseCategoryEdits(
        rows.map((row) => row.id),
        rows.map((row) => row.title),
      ),
      removed: categories.filter((category) => !kept.has(category.id)).map((category) => category.id),
    };
    try {
      await onSave(changes);
      showToast(texts.updated, 'success');
      onClose();
    } catch {
      showToast(navigator.onLine ? texts.notUpdated : texts.offline, 'error');
      setBusy(false);
    }
  };

  const setTitle = (key: number, title: string) =>
    setRows((current) => {
      const next = current.map((row) => (row.key === key ? { ...row, title } : row));
      // Typing into the last empty row opens a fresh one below it.
      if (current[current.length - 1]?.key === key && title !== '') next.push(emptyRow());
      return next;
    });

  return (
    <Dialog
      title={texts.title}
      onClose={onClose}
      width={420}
      buttons={
        <>
          <button type="submit" form={formId} className="button button-primary" disabled={busy || !online}>
            {texts.save}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {texts.cancel}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="form categories-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void save();
        }}
      >
        <ul className="categories-list">
          {rows.map((row) => (
            <li key={row.key}>
              <input
                type="text"
                value={row.title}
                maxLength={255}
                aria-label={row.id === 0 ? texts.newCategory : texts.categoryTitle}
                placeholder={row.id === 0 ? texts.newCategory : undefined}
                onChange={(event) => setTitle(row.key, event.target.value)}
              />
              <button
                type="button"
                className="button categories-remove"
                aria-label={texts.removeCategory(row.title.trim() || texts.newCategory)}
                onClick={() => setRows((current) => current.filter((item) => item.key !== row.key))}
              >
                <X aria-hidden="true" size={16} />
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="button"
          onClick={() => setRows((current) => [...current, emptyRow()])}
        >
          {texts.addCategory}
        </button>
      </form>
    </Dialog>
  );
}
