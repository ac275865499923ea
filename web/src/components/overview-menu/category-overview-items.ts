import type { BulkAction } from '../bulk-menu/bulk-menu';
import { allVisibleSelected, selectVisible } from '../data-table/selection';
import { ALL_ROWS } from '../overview/use-overview-state';
import type { DropdownMenuItem, SelectActionMenuItem, TextMenuItem } from './overview-menu';

/**
 * The bulk entry of an overview that a search or filter narrows (bibliography, images): its
 * select-all box ticks and clears the visible rows only.
 */
export function visibleRowsBulkItem(
  selected: ReadonlySet<string>,
  setSelected: (next: Set<string>) => void,
  visibleIds: readonly string[],
  someSelected: boolean,
  actions: BulkAction[],
): SelectActionMenuItem {
  return {
    type: 'select-action',
    id: 'bulk',
    allSelected: allVisibleSelected(selected, visibleIds),
    someSelected,
    nothingToSelect: visibleIds.length === 0,
    onSelectAll: (checked: boolean) => setSelected(selectVisible(selected, visibleIds, checked)),
    actions,
  };
}

/** The category filter (shortcut c): all rows, then each of the user's categories. */
export function categoryFilterItem(
  labels: { title: string; all: string },
  categories: readonly { id: number; category_title: string }[],
  activeFilter: string,
  setFilter: (id: string) => void,
): DropdownMenuItem {
  return {
    type: 'dropdown',
    id: 'categories',
    title: labels.title,
    shortcut: 'c',
    selectedId: activeFilter,
    options: [
      { id: ALL_ROWS, label: labels.all, onSelect: () => setFilter(ALL_ROWS) },
      ...categories.map((category) => ({
        id: String(category.id),
        label: category.category_title,
        onSelect: () => setFilter(String(category.id)),
      })),
    ],
  };
}

/** The entry that opens the category editor (shortcut e); categories are edited online only. */
export function editCategoriesItem(title: string, online: boolean, open: () => void): TextMenuItem {
  return { type: 'text', id: 'edit-categories', title, shortcut: 'e', disabled: !online, onSelect: open };
}
