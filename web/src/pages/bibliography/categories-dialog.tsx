import type { ListStamp } from '@scriptorium/common/api/bibliography';
import type { BibCategory } from '@scriptorium/common/bibliography/types';
import { useTranslation } from 'react-i18next';
import {
  categoriesDialogTexts,
  CategoriesDialog as SharedCategoriesDialog,
} from '../../components/categories-dialog/categories-dialog';
import { useOnline } from '../../components/online/use-online';
import { deleteCategories, saveCategories } from './bibliography-api';

export interface CategoriesDialogProps {
  categories: BibCategory[];
  onClose(): void;
  /**
   * The categories after saving; `removed` ids were taken off every entry by the server, which
   * moved the list's stamp (`stamp`, null when nothing was removed).
   */
  onSaved(categories: BibCategory[], removed: number[], stamp: ListStamp | null): void;
}

/** Add, rename and remove bibliography categories: removed ones are deleted first, then the rest saved. */
export function CategoriesDialog({ categories, onClose, onSaved }: CategoriesDialogProps) {
  const { t } = useTranslation('bibliography');
  const online = useOnline();
  return (
    <SharedCategoriesDialog
      categories={categories}
      online={online}
      texts={categoriesDialogTexts(t, { title: 'editCategories', save: 'submit' })}
      onSave={async ({ edits, removed }) => {
        const stamp = removed.length > 0 ? await deleteCategories(removed) : null;
        const saved = await saveCategories(
          edits.map((edit) => edit.id),
          edits.map((edit) => edit.title),
        );
        onSaved(saved, removed, stamp);
      }}
      onClose={onClose}
    />
  );
}
