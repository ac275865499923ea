import {
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import {
  findByPrefix,
  headerStops,
  isField,
  isInteractive,
  keepControlsOutOfTabOrder,
  rowControls,
} from './grid-focus';
import type { RowSelection } from './use-row-selection';
import type { TableRows } from './use-table-rows';
import { scrollTopToReveal } from './windowing';

/** Letters typed within this many ms of each other make one name to find. */
const TYPE_AHEAD_PAUSE = 1000;

export interface GridKeyboardOptions<Row> {
  tableRef: RefObject<HTMLTableElement | null>;
  scrollRef: RefObject<HTMLDivElement | null>;
  rows: TableRows<Row>;
  selection: RowSelection;
  selectable: boolean;
  paged: boolean;
  rowHeight: number;
  scrollHeight: number;
  rowLabel?(row: Row): string;
  onActivate?(row: Row): void;
  onDelete?(row: Row): void;
}

/** What the grid's markup takes from its keyboard model. */
export interface GridKeyboard {
  /** The grid's one Tab stop. */
  tabStopId: string | null;
  rowRef(id: string): (element: HTMLElement | null) => void;
  onKeyDown(event: KeyboardEvent<HTMLTableElement>): void;
  onFocus(event: FocusEvent<HTMLTableElement>): void;
  onBlur(event: FocusEvent<HTMLTableElement>): void;
  onRowClick(event: MouseEvent<HTMLTableRowElement>, index: number): void;
}

/** The header row's keys: Left/Right along it, Down back to the rows, Enter or Space sorts. */
function onHeaderKey(
  event: KeyboardEvent<HTMLTableElement>,
  target: HTMLElement,
  table: HTMLTableElement | null,
  sortBy: (columnId: string) => void,
  toRows: (() => void) | null,
): boolean {
  const stops = headerStops(table);
  const at = stops.indexOf(target);
  if (at < 0) return false;
  const sortable = target.dataset.columnId;
  if ((event.key === 'Enter' || event.key === ' ') && target.matches('th') && sortable) {
    sortBy(sortable);
    return true;
  }
  if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
    stops[Math.max(0, Math.min(stops.length - 1, at + (event.key === 'ArrowRight' ? 1 : -1)))].focus();
    return true;
  }
  if (event.key === 'ArrowDown' && toRows) {
    toRows();
    return true;
  }
  return false;
}

/**
 * Left/Right along a row's controls, and from the first one back to the row; Home to the row and
 * End to its last control (the ends of the row, as in a grid's cells), with Ctrl to the first and
 * last row.
 */
function onControlKey(
  event: KeyboardEvent<HTMLTableElement>,
  row: HTMLElement,
  index: number,
  count: number,
  focusRow: (index: number) => void,
): boolean {
  const target = event.target as HTMLElement;
  if (isField(target)) return false;
  if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
    focusRow(index + (event.key === 'ArrowDown' ? 1 : -1));
    return true;
  }
  const controls = rowControls(row);
  if (event.key === 'Home' || event.key === 'End') {
    const last = event.key === 'End';
    if (event.ctrlKey || event.metaKey) focusRow(last ? count - 1 : 0);
    else if (last) controls[controls.length - 1]?.focus();
    else row.focus();
    return true;
  }
  if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return false;
  const at = controls.findIndex((control) => control === target || control.contains(target));
  const next = at + (event.key === 'ArrowRight' ? 1 : -1);
  if (next < 0) row.focus();
  else controls[Math.min(controls.length - 1, next)]?.focus();
  return true;
}

/**
 * The grid pattern's focus and keys: one Tab stop (its current row), the arrows, pages, Home/End,
 * type-ahead, selection keys, and the focus kept in place when the focused row goes.
 */
export function useGridKeyboard<Row>(options: GridKeyboardOptions<Row>): GridKeyboard {
  const { tableRef, scrollRef, rows, selection, selectable, paged, rowHeight, scrollHeight } = options;
  const { ordered, orderedIds, indexOfId, shownIds, firstIndex, lastIndex, pageSize, scrollTop } = rows;
  const focusPending = useRef<string | null>(null);
  // The grid's one Tab stop: the row last focused while it is drawn, else the first one drawn.
  const [currentId, setCurrentId] = useState<string | null>(null);
  const tabStopId = currentId !== null && shownIds.includes(currentId) ? currentId : (shownIds[0] ?? null);
  // Where the focus was in the list: when that row goes (deleted, moved away), its place keeps it.
  const focusedIndex = useRef<number | null>(null);
  const typed = useRef({ text: '', at: 0 });

  useLayoutEffect(() => {
    keepControlsOutOfTabOrder(tableRef.current?.tBodies[0] ?? null);
    const index = focusedIndex.current;
    const active = document.activeElement;
    if (index === null || shownIds.length === 0 || (active && active !== document.body)) return;
    // The focused row is gone and took the focus with it: the row now in its place takes it.
    const at = Math.max(firstIndex, Math.min(lastIndex - 1, index));
    tableRef.current?.querySelector<HTMLElement>(`tr[data-row-id="${CSS.escape(orderedIds[at])}"]`)?.focus();
  });

  // A row the keyboard moved to (on another page, further down a long list) takes the focus when
  // it is drawn.
  const rowRef = (id: string) => (element: HTMLElement | null) => {
    if (element && focusPending.current === id) {
      focusPending.current = null;
      element.focus();
    }
  };

  /** Moves the focus to a row of the whole list, turning the page or scrolling a long list to it. */
  const focusRow = (index: number) => {
    if (ordered.length === 0) return;
    const target = Math.max(0, Math.min(ordered.length - 1, index));
    if (paged) rows.setRequestedPage(Math.floor(target / pageSize));
    if (rows.virtual) {
      const viewport = scrollRef.current?.clientHeight || scrollHeight;
      // The sticky header covers one row's height of the viewport.
      const next = scrollTopToReveal(target, rowHeight, scrollTop, Math.max(rowHeight, viewport - rowHeight));
      if (next !== scrollTop) {
        if (scrollRef.current) scrollRef.current.scrollTop = next;
        rows.setScrollTop(next);
      }
    }
    const element = tableRef.current?.querySelector<HTMLElement>(
      `tr[data-row-id="${CSS.escape(orderedIds[target])}"]`,
    );
    // Drawn already: focus it now; else when it is drawn.
    if (element && target >= firstIndex && target < lastIndex) element.focus();
    else focusPending.current = orderedIds[target];
    return target;
  };

  const onFocus = (event: FocusEvent<HTMLTableElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('tr[data-row-id]');
    const id = row?.dataset.rowId;
    if (id === undefined) return;
    focusedIndex.current = indexOfId.get(id) ?? null;
    if (id !== currentId) setCurrentId(id);
  };
  const onBlur = (event: FocusEvent<HTMLTableElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) focusedIndex.current = null;
  };

  /** A focused row's keys. */
  const onRowKey = (event: KeyboardEvent<HTMLTableElement>, row: HTMLElement, index: number) => {
    const id = orderedIds[index];
    const step = paged
      ? pageSize
      : Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 0) / rowHeight));
    const move = (to: number) => {
      const target = focusRow(to);
      if (event.shiftKey && selectable && target !== undefined) {
        // The range starts on the row the first Shift+arrow leaves.
        selection.anchorId.current ??= id;
        selection.extendTo(target);
      }
      return true;
    };
    const typing = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
    // A space inside a typed name is part of it (Space toggles the selection otherwise).
    const now = Date.now();
    const goingOn = now - typed.current.at < TYPE_AHEAD_PAUSE;
    if (typing && options.rowLabel && (event.key !== ' ' || (goingOn && typed.current.text))) {
      typed.current = { text: (goingOn ? typed.current.text : '') + event.key, at: now };
      const labels = ordered.map((each) => options.rowLabel?.(each) ?? '');
      const found = findByPrefix(labels, typed.current.text, index, typed.current.text.length > 1);
      if (found >= 0) focusRow(found);
      return true;
    }
    switch (event.key) {
      case 'ArrowDown':
        return move(index + 1);
      case 'ArrowUp':
        if (index > 0) return move(index - 1);
        headerStops(tableRef.current)[0]?.focus();
        return true;
      case 'PageDown':
        return move(index + step);
      case 'PageUp':
        return move(index - step);
      case 'Home':
        return move(0);
      case 'End':
        return move(ordered.length - 1);
      case 'ArrowRight':
        rowControls(row)[0]?.focus();
        return true;
      case ' ':
        if (!selectable) return false;
        selection.toggle(id);
        return true;
      case 'Enter':
        if (!options.onActivate) return false;
        options.onActivate(ordered[index]);
        return true;
      case 'Delete':
        if (!options.onDelete) return false;
        options.onDelete(ordered[index]);
        return true;
      case 'Escape':
        if (!selectable || selection.selectedCount === 0) return false;
        selection.selectAll(false);
        return true;
      case 'a':
      case 'A':
        if (!selectable || !(event.ctrlKey || event.metaKey)) return false;
        selection.selectAll(true);
        return true;
      default:
        return false;
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const target = event.target as HTMLElement;
    const row = target.closest<HTMLElement>('tr[data-row-id]');
    const index = row?.dataset.rowId === undefined ? undefined : indexOfId.get(row.dataset.rowId);
    const toRows = tabStopId === null ? null : () => focusRow(indexOfId.get(tabStopId) ?? 0);
    let handled = false;
    if (!row)
      handled =
        target.closest('thead') !== null && onHeaderKey(event, target, tableRef.current, rows.sortBy, toRows);
    else if (index === undefined) handled = false;
    else if (target === row) handled = onRowKey(event, row, index);
    else handled = onControlKey(event, row, index, ordered.length, focusRow);
    // A key the grid handles goes no further (no scrolling, no page shortcut).
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const onRowClick = (event: MouseEvent<HTMLTableRowElement>, index: number) => {
    if (!selectable || isInteractive(event.target, event.currentTarget)) return;
    if (event.shiftKey) selection.extendTo(index);
    else selection.toggle(orderedIds[index]);
  };

  return { tabStopId, rowRef, onKeyDown, onFocus, onBlur, onRowClick };
}
