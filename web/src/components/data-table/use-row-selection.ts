import { useRef } from 'react';
import { selectVisible } from './selection';

/** The selection of a table's rows: counts, select all, toggle one, extend a range from the anchor. */
export interface RowSelection {
  selectedCount: number;
  allSelected: boolean;
  someSelected: boolean;
  selectAll(checked: boolean): void;
  toggle(id: string): void;
  /** Shift: every row from the anchor to this one joins the selection. */
  extendTo(index: number): void;
  /** The row a Shift+click or Shift+arrow extends the selection from. */
  anchorId: { current: string | null };
}

export function useRowSelection(
  orderedIds: readonly string[],
  indexOfId: ReadonlyMap<string, number>,
  selected: ReadonlySet<string>,
  onSelectedChange: ((selected: Set<string>) => void) | undefined,
): RowSelection {
  const anchorId = useRef<string | null>(null);
  const selectedCount = orderedIds.reduce((count, id) => count + (selected.has(id) ? 1 : 0), 0);
  const allSelected = orderedIds.length > 0 && selectedCount === orderedIds.length;
  const someSelected = selectedCount > 0 && !allSelected;
  const selectAll = (checked: boolean) => onSelectedChange?.(selectVisible(selected, orderedIds, checked));

  const toggle = (id: string) => {
    anchorId.current = id;
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange?.(next);
  };

  const extendTo = (index: number) => {
    const anchor = anchorId.current === null ? undefined : indexOfId.get(anchorId.current);
    if (anchor === undefined) {
      toggle(orderedIds[index]);
      return;
    }
    const next = new Set(selected);
    for (let at = Math.min(anchor, index); at <= Math.max(anchor, index); at++) next.add(orderedIds[at]);
    onSelectedChange?.(next);
  };

  return { selectedCount, allSelected, someSelected, selectAll, toggle, extendTo, anchorId };
}
