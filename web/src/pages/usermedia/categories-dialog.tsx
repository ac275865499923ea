import type { ImageCategory } from '@scriptorium/common/api/usermedia';
import { useTranslation } from 'react-i18next';
import {
  categoriesDialogTexts,
  CategoriesDialog as SharedCategoriesDialog,
} from '../../components/categories-dialog/categories-dialog';
import { saveCategories } from './usermedia-api';

export interface CategoriesDialogProps {
  categories: ImageCategory[];
  online: boolean;
  onClose(): void;
  onSaved(categories: ImageCategory[]): void;
}

/** Edit image categories (spec 2.5, 5): the server keeps exactly the categories sent. */
export function CategoriesDialog({ categories, online, onClose, onSaved }: CategoriesDialogProps) {
  const { t } = useTranslation('usermedia');
  return (
    <SharedCategoriesDialog
      categories={categories}
      online={online}
      texts={categoriesDialogTexts(t, { title: 'categoriesDialogTitle', save: 'save' })}
      onSave={async ({ edits }) => onSaved(await saveCategories(edits))}
      onClose={onClose}
    />
  );
}
