import { type CategoryEdit, normaliseCategoryEdits } from '@scriptorium/common/api/usermedia';
import { X } from 'lucide-react';
import { useState } from 'react';
import { FormDialog } from '../dialog/dialog';
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
  updated: string;
  notUpdated: string;
  offline: string;
}

/** A translation function of the opening screen's namespace. */
type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The texts from a screen's namespace, where they have the same keys (categoryTitle, newCategory,
 * addCategory, removeCategory, categoriesUpdated, categoriesNotUpdated, offline); the title and
 * the save button are named by the screen.
 */
export function categoriesDialogTexts(
  t: Translate,
  keys: { title: string; save: string },
): CategoriesDialogTexts {
  return {
    title: t(keys.title),
    categoryTitle: t('categoryTitle'),
    newCategory: t('newCategory'),
    addCategory: t('addCategory'),
    removeCategory: (title) => t('removeCategory', { title }),
    save: t(keys.save),
    updated: t('categoriesUpdated'),
    notUpdated: t('categoriesNotUpdated'),
    offline: t('offline'),
  };
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
    <FormDialog
      title={texts.title}
      onClose={onClose}
      width={420}
      submitLabel={texts.save}
      onSubmit={save}
      busy={busy}
      disabled={!online}
      formClassName="form categories-form"
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
      <button type="button" className="button" onClick={() => setRows((current) => [...current, emptyRow()])}>
        {texts.addCategory}
      </button>
    </FormDialog>
  );
}
