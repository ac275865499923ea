import { ChevronLeft, ChevronRight, type LucideIcon } from 'lucide-react';
import {
  type ComponentType,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type UIEvent,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../form/select';
import { ColumnResizer, MIN_COLUMN_WIDTH } from './column-resizer';
import {
  findByPrefix,
  headerStops,
  isField,
  isInteractive,
  keepControlsOutOfTabOrder,
  rowControls,
} from './grid-focus';
import { SelectBox } from './select-box';
import { selectVisible } from './selection';
import { filterRows, type SortDirection, type SortState, type SortValue, sortRows } from './sorting';
import { HeaderLabel, headerClassName, SkeletonLines } from './table-parts';
import { tableScrollHeight, useWindowSize } from './use-window-size';
import { computeWindow, scrollTopToReveal } from './windowing';
import './data-table.css';

export type { SortDirection, SortState, SortValue } from './sorting';

/** Spec section 9: table defaults. */
export const DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_PAGE_SIZE_OPTIONS = [5, 10, 15, 20, 25];
/** Unpaged tables with more rows than this render only the rows in view. */
export const DEFAULT_VIRTUALIZE_ABOVE = 200;
export const DEFAULT_ROW_HEIGHT = 40;

export interface Column<Row> {
  id: string;
  header: ReactNode;
  /** Accessible name of a header that shows only an icon. */
  headerLabel?: string;
  cell(row: Row): ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?(row: Row): SortValue;
  hidden?: boolean;
  className?: string;
  /** The label of the value on a phone's card; defaults to a text header. false: none (the title). */
  cardLabel?: string | false;
}

export interface DataTableProps<Row> {
  rows: Row[];
  columns: Column<Row>[];
  getRowId(row: Row): string;
  /** Accessible name of the table. */
  label?: string;
  /** Adds a checkbox column and a select-all checkbox in the header. */
  selectable?: boolean;
  selected?: Set<string>;
  onSelectedChange?(selected: Set<string>): void;
  /** Names the row's checkbox ('Select {{name}}'). */
  rowLabel?(row: Row): string;
  /** Enter on a focused row. */
  onActivate?(row: Row): void;
  /** The Delete key on a focused row. */
  onDelete?(row: Row): void;
  /** Shown when there are no rows at all ('No contacts available'). */
  emptyMessage: string;
  /** Shown when the search leaves no rows ('No contacts found'); defaults to emptyMessage. */
  noMatchMessage?: string;
  /** false: one scrolling list without pages. */
  paged?: boolean;
  /** Initial rows per page. */
  pageSize?: number;
  pageSizeOptions?: number[];
  /** Controlled sort; keep it in the caller to survive list refreshes and remounts. */
  sort?: SortState | null;
  onSortChange?(sort: SortState): void;
  /** Initial sort when `sort` is not controlled. */
  defaultSort?: SortState | null;
  search?: string;
  /** The text `search` is matched against. */
  searchText?(row: Row): string;
  /** Row height in px used for windowing long unpaged lists. */
  rowHeight?: number;
  virtualizeAbove?: number;
  className?: string;
  /** While the rows load: skeleton rows in place of the table's body, and a loading notice. */
  loading?: boolean;
  /** The loading notice read by screen readers ('Loading…'). */
  loadingMessage?: string;
  /** The designed empty state: an icon above the empty message ... */
  emptyIcon?: LucideIcon | ComponentType<{ 'aria-hidden'?: boolean | 'true' }>;
  /** ... and the next thing to do, a primary button shown when there are no rows at all (not on a search). */
  emptyAction?: { label: string; onAction(): void; disabled?: boolean };
  /** Columns keep a width the user dragged or keyed (desktop); false: fixed columns. */
  resizable?: boolean;
}

/** On a phone (cards): the height of one card line, and the card's padding. */
const CARD_LINE_HEIGHT = 28;
const CARD_PADDING = 24;
/** At or below this width the rows are cards (matches the CSS breakpoint). */
export const CARD_BREAKPOINT = 640;
/** The id of the checkbox column (also its key among the resized widths). */
const SELECT_COLUMN = '__select';

const NO_SELECTION = new Set<string>();
/** Letters typed within this many ms of each other make one name to find. */
const TYPE_AHEAD_PAUSE = 1000;

/**
 * The sortable, searchable, selectable table of the overview screens: a plain table with the grid
 * pattern's roles and keys, our own rather than react-aria's Table, whose mount renders every row
 * twice and synchronously (its collection is built in a hidden render first): about 230 ms for a
 * page of ten documents on a phone-class CPU, the largest task of an overview's start (issue 23).
 *
 * The grid is one Tab stop, its current row. Keyboard: the arrows move between rows (on to the
 * next page, or through a long list), Page Up/Down by a page, Home/End to the ends; Shift with an
 * arrow extends the selection; Space toggles it, Ctrl+A selects every row, Escape clears it; Enter
 * activates, Delete deletes; typed letters find a row by its name; Left/Right move along a row's
 * controls (there Home/End go to the row's ends, with Ctrl to the first and last row), and Up from
 * the first row into the header, where Enter or Space sorts. A click on a
 * selectable row (not on a control of its own) toggles its selection, Shift+click a range.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const {
    rows,
    columns,
    getRowId,
    label,
    selectable = false,
    selected = NO_SELECTION,
    onSelectedChange,
    rowLabel,
    onActivate,
    onDelete,
    emptyMessage,
    noMatchMessage,
    paged = true,
    pageSizeOptions = DEFAULT_PAGE_SIZE_OPTIONS,
    search = '',
    searchText,
    virtualizeAbove = DEFAULT_VIRTUALIZE_ABOVE,
    className,
    loading = false,
    loadingMessage,
    emptyIcon: EmptyIcon,
    emptyAction,
    resizable = true,
  } = props;
  const { t } = useTranslation('components');
  const { height: windowHeight, width: windowWidth } = useWindowSize();
  const cards = windowWidth <= CARD_BREAKPOINT;
  const [widths, setWidths] = useState<Record<string, number>>({});
  const scrollHeight = tableScrollHeight(windowHeight);
  const tableId = useId();

  const [ownSort, setOwnSort] = useState<SortState | null>(props.defaultSort ?? null);
  const sort = props.sort !== undefined ? props.sort : ownSort;
  const [pageSize, setPageSize] = useState(props.pageSize ?? DEFAULT_PAGE_SIZE);
  const [requestedPage, setRequestedPage] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const focusPending = useRef<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);

  const visibleColumns = columns.filter((column) => !column.hidden);
  // A card is one line per value (the title may take two): virtual lists need its height.
  const rowHeight = cards
    ? (visibleColumns.length + 1) * CARD_LINE_HEIGHT + CARD_PADDING
    : (props.rowHeight ?? DEFAULT_ROW_HEIGHT);
  const cardLabelOf = (column: Column<Row>, index: number) => {
    if (column.cardLabel !== undefined) return column.cardLabel || undefined;
    // The first column is the card's title; a column without a text header needs no label.
    if (index === 0) return undefined;
    return typeof column.header === 'string' && column.header ? column.header : undefined;
  };

  // Callers usually pass new column and accessor functions on every render; filtering and sorting
  // thousands of rows again for each of those (or for each scroll step) would be wasted work, so the
  // list is recomputed when the data, the search or the sort changes, with the latest accessors.
  const accessors = useRef({ columns, searchText, getRowId });
  accessors.current = { columns, searchText, getRowId };
  const hasSearchText = searchText !== undefined;
  const sortColumnId = sort?.columnId;
  const sortDirection = sort?.direction;

  const ordered = useMemo(() => {
    const { columns: currentColumns, searchText: text } = accessors.current;
    const matching = text && hasSearchText ? filterRows(rows, search, text) : [...rows];
    const sortValue = currentColumns.find((column) => column.id === sortColumnId)?.sortValue;
    if (!sortValue || !sortDirection) return matching;
    return sortRows(matching, sortValue, sortDirection);
  }, [rows, search, hasSearchText, sortColumnId, sortDirection]);

  const orderedIds = useMemo(() => ordered.map((row) => accessors.current.getRowId(row)), [ordered]);
  const indexOfId = useMemo(() => new Map(orderedIds.map((id, index) => [id, index])), [orderedIds]);

  // A new search starts on the first page.
  const [lastSearch, setLastSearch] = useState(search);
  if (lastSearch !== search) {
    setLastSearch(search);
    setRequestedPage(0);
  }

  const pageCount = paged ? Math.max(1, Math.ceil(ordered.length / pageSize)) : 1;
  const page = Math.min(requestedPage, pageCount - 1);
  const virtual = !paged && ordered.length > virtualizeAbove;
  const rowWindow = virtual
    ? computeWindow({ count: ordered.length, rowHeight, scrollTop, viewportHeight: scrollHeight })
    : null;
  const firstIndex = paged ? page * pageSize : (rowWindow?.start ?? 0);
  const lastIndex = paged
    ? Math.min(ordered.length, firstIndex + pageSize)
    : (rowWindow?.end ?? ordered.length);
  const shown = ordered.slice(firstIndex, lastIndex);
  const shownIds = orderedIds.slice(firstIndex, lastIndex);
  const skeleton = loading && rows.length === 0;

  // The grid's one Tab stop: the row last focused while it is drawn, else the first one drawn.
  const [currentId, setCurrentId] = useState<string | null>(null);
  const tabStopId = currentId !== null && shownIds.includes(currentId) ? currentId : (shownIds[0] ?? null);
  // Where the focus was in the list: when that row goes (deleted, moved away), its place keeps it.
  const focusedIndex = useRef<number | null>(null);
  // The row a Shift+click or Shift+arrow extends the selection from.
  const anchorId = useRef<string | null>(null);
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
    if (paged) setRequestedPage(Math.floor(target / pageSize));
    if (virtual) {
      const viewport = scrollRef.current?.clientHeight || scrollHeight;
      // The sticky header covers one row's height of the viewport.
      const next = scrollTopToReveal(target, rowHeight, scrollTop, Math.max(rowHeight, viewport - rowHeight));
      if (next !== scrollTop) {
        if (scrollRef.current) scrollRef.current.scrollTop = next;
        setScrollTop(next);
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

  /** Shift: every row from the anchor to this one joins the selection. */
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

  const sortBy = (columnId: string) => {
    // The first press on a column sorts it ascending, the next one flips it.
    const direction: SortDirection =
      sort?.columnId === columnId && sort.direction === 'ascending' ? 'descending' : 'ascending';
    const next = { columnId, direction };
    setOwnSort(next);
    props.onSortChange?.(next);
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

  /** The header row's keys: Left/Right along it, Down back to the rows, Enter or Space sorts. */
  const onHeaderKey = (event: KeyboardEvent<HTMLTableElement>, target: HTMLElement) => {
    const stops = headerStops(tableRef.current);
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
    if (event.key === 'ArrowDown' && tabStopId !== null) {
      focusRow(indexOfId.get(tabStopId) ?? 0);
      return true;
    }
    return false;
  };

  /**
   * Left/Right along a row's controls, and from the first one back to the row; Home to the row and
   * End to its last control (the ends of the row, as in a grid's cells), with Ctrl to the first and
   * last row.
   */
  const onControlKey = (event: KeyboardEvent<HTMLTableElement>, row: HTMLElement, index: number) => {
    const target = event.target as HTMLElement;
    if (isField(target)) return false;
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      focusRow(index + (event.key === 'ArrowDown' ? 1 : -1));
      return true;
    }
    const controls = rowControls(row);
    if (event.key === 'Home' || event.key === 'End') {
      const last = event.key === 'End';
      if (event.ctrlKey || event.metaKey) focusRow(last ? ordered.length - 1 : 0);
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
        anchorId.current ??= id;
        extendTo(target);
      }
      return true;
    };
    const typing = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
    // A space inside a typed name is part of it (Space toggles the selection otherwise).
    const now = Date.now();
    const goingOn = now - typed.current.at < TYPE_AHEAD_PAUSE;
    if (typing && rowLabel && (event.key !== ' ' || (goingOn && typed.current.text))) {
      typed.current = { text: (goingOn ? typed.current.text : '') + event.key, at: now };
      const found = findByPrefix(
        ordered.map((each) => rowLabel(each)),
        typed.current.text,
        index,
        typed.current.text.length > 1,
      );
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
        toggle(id);
        return true;
      case 'Enter':
        if (!onActivate) return false;
        onActivate(ordered[index]);
        return true;
      case 'Delete':
        if (!onDelete) return false;
        onDelete(ordered[index]);
        return true;
      case 'Escape':
        if (!selectable || selectedCount === 0) return false;
        selectAll(false);
        return true;
      case 'a':
      case 'A':
        if (!selectable || !(event.ctrlKey || event.metaKey)) return false;
        selectAll(true);
        return true;
      default:
        return false;
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const target = event.target as HTMLElement;
    const row = target.closest<HTMLElement>('tr[data-row-id]');
    const index = row?.dataset.rowId === undefined ? undefined : indexOfId.get(row.dataset.rowId);
    let handled = false;
    if (!row) handled = target.closest('thead') !== null && onHeaderKey(event, target);
    else if (index === undefined) handled = false;
    else if (target === row) handled = onRowKey(event, row, index);
    else handled = onControlKey(event, row, index);
    // A key the grid handles goes no further (no scrolling, no page shortcut).
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const onRowClick = (event: MouseEvent<HTMLTableRowElement>, index: number) => {
    if (!selectable || isInteractive(event.target, event.currentTarget)) return;
    if (event.shiftKey) extendTo(index);
    else toggle(orderedIds[index]);
  };

  // The first resize freezes every column at its laid-out width, so that the table grows or shrinks
  // by what the user changes instead of spreading it over the other columns.
  const resizeColumn = (columnId: string, next: number) => {
    setWidths((current) => {
      const base = { ...current };
      if (Object.keys(base).length === 0) {
        for (const cell of tableRef.current?.querySelectorAll<HTMLElement>('thead th[data-column-id]') ??
          []) {
          base[cell.dataset.columnId ?? ''] = Math.round(cell.getBoundingClientRect().width);
        }
      }
      return { ...base, [columnId]: Math.max(MIN_COLUMN_WIDTH, next) };
    });
  };
  const frozenWidth = Object.values(widths).reduce((sum, width) => sum + width, 0);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    if (virtual) setScrollTop(event.currentTarget.scrollTop);
  };

  const emptyText = rows.length === 0 ? emptyMessage : (noMatchMessage ?? emptyMessage);
  const widthOf = (id: string) => (widths[id] && !cards ? { width: widths[id] } : undefined);
  // Every header but the last has a resize handle on a desktop.
  const hasResizer = (columnIndex: number) => resizable && !cards && columnIndex < visibleColumns.length - 1;
  const tableStyle =
    frozenWidth > 0 && !cards ? ({ tableLayout: 'fixed', width: frozenWidth } as const) : undefined;
  const columnCount = visibleColumns.length + (selectable ? 1 : 0);

  return (
    <div
      className={`data-table${cards ? ' data-table-cards' : ''}${selectable ? ' data-table-selectable' : ''}${className ? ` ${className}` : ''}`}
    >
      {skeleton && loadingMessage ? (
        <p className="visually-hidden" role="status">
          {loadingMessage}
        </p>
      ) : null}
      <div
        ref={scrollRef}
        className="data-table-scroll"
        style={{ maxHeight: scrollHeight }}
        onScroll={onScroll}
        data-virtual={virtual || undefined}
      >
        {rowWindow && rowWindow.before > 0 ? (
          <div aria-hidden="true" className="data-table-spacer" style={{ height: rowWindow.before }} />
        ) : null}
        <table
          ref={tableRef}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a table with the grid role is the grid pattern's own markup (its cells become gridcells)
          role="grid"
          aria-label={label}
          aria-multiselectable={selectable || undefined}
          aria-rowcount={ordered.length + 1}
          aria-busy={skeleton || undefined}
          className="data-table-table"
          style={tableStyle}
          onKeyDown={onKeyDown}
          onFocus={onFocus}
          onBlur={onBlur}
        >
          <thead className="data-table-head">
            <tr aria-rowindex={1}>
              {selectable ? (
                <th
                  scope="col"
                  className="data-table-select"
                  data-column-id={SELECT_COLUMN}
                  style={widthOf(SELECT_COLUMN)}
                >
                  <SelectBox
                    label={t('tableSelectAll')}
                    isSelected={allSelected}
                    isIndeterminate={someSelected}
                    isDisabled={ordered.length === 0}
                    onChange={selectAll}
                  />
                </th>
              ) : null}
              {visibleColumns.map((column, columnIndex) => {
                const name =
                  column.headerLabel ?? (typeof column.header === 'string' ? column.header : column.id);
                const sortable = Boolean(column.sortValue);
                const labelId = `${tableId}-${column.id}`;
                return (
                  <th
                    key={column.id}
                    scope="col"
                    className={headerClassName(column.className, sortable)}
                    data-column-id={column.id}
                    // A header's name is its label only, not its resize handle's.
                    aria-labelledby={hasResizer(columnIndex) ? labelId : undefined}
                    aria-sort={
                      sortable ? (sort?.columnId === column.id ? sort.direction : 'none') : undefined
                    }
                    tabIndex={sortable ? -1 : undefined}
                    onClick={sortable ? () => sortBy(column.id) : undefined}
                    style={widthOf(column.id)}
                  >
                    <HeaderLabel
                      id={labelId}
                      header={column.header}
                      headerLabel={column.headerLabel}
                      sortable={sortable}
                      sorted={sort?.columnId === column.id ? sort.direction : undefined}
                    />
                    {hasResizer(columnIndex) ? (
                      <ColumnResizer
                        label={t('tableResizeColumn', { name })}
                        width={widths[column.id]}
                        onResize={(next) => resizeColumn(column.id, next)}
                      />
                    ) : null}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="data-table-body">
            {shown.length === 0 ? (
              <tr>
                <td colSpan={columnCount}>
                  {skeleton ? (
                    <SkeletonLines />
                  ) : (
                    <div className="data-table-empty-state">
                      {EmptyIcon ? <EmptyIcon aria-hidden="true" /> : null}
                      <p>{emptyText}</p>
                      {rows.length === 0 && emptyAction ? (
                        <button
                          type="button"
                          className="button button-primary"
                          disabled={emptyAction.disabled}
                          onClick={emptyAction.onAction}
                        >
                          {emptyAction.label}
                        </button>
                      ) : null}
                    </div>
                  )}
                </td>
              </tr>
            ) : null}
            {shown.map((row, offset) => {
              const index = firstIndex + offset;
              const id = shownIds[offset];
              const name = rowLabel?.(row);
              const isSelected = selected.has(id);
              return (
                <tr
                  key={id}
                  ref={rowRef(id)}
                  data-row-id={id}
                  className="data-table-row"
                  aria-rowindex={index + 2}
                  aria-selected={selectable ? isSelected : undefined}
                  data-selected={isSelected || undefined}
                  aria-labelledby={`${tableId}-row-${index}`}
                  tabIndex={id === tabStopId ? 0 : -1}
                  onClick={(event) => onRowClick(event, index)}
                  style={virtual ? { height: rowHeight } : undefined}
                >
                  {selectable ? (
                    <td className="data-table-select">
                      <SelectBox
                        label={name ? t('tableSelectNamedRow', { name }) : t('tableSelectRow')}
                        isSelected={isSelected}
                        onChange={() => toggle(id)}
                      />
                    </td>
                  ) : null}
                  {visibleColumns.map((column, columnIndex) => (
                    <td
                      key={column.id}
                      id={columnIndex === 0 ? `${tableId}-row-${index}` : undefined}
                      role={columnIndex === 0 ? 'rowheader' : undefined}
                      className={column.className}
                      data-label={cards ? cardLabelOf(column, columnIndex) : undefined}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
        {rowWindow && rowWindow.after > 0 ? (
          <div aria-hidden="true" className="data-table-spacer" style={{ height: rowWindow.after }} />
        ) : null}
      </div>
      {paged && ordered.length > 0 && !skeleton ? (
        <div className="data-table-pager">
          <span className="data-table-info">
            {t('tableShowing', { from: firstIndex + 1, to: lastIndex, total: ordered.length })}
          </span>
          <Select
            className="data-table-page-size"
            inline
            label={t('tableRowsPerPage')}
            value={String(pageSize)}
            options={pageSizeOptions.map((option) => ({ value: String(option), label: String(option) }))}
            onChange={(value) => {
              const size = Number(value);
              // Keep the first row of the current page in view.
              setRequestedPage(Math.floor(firstIndex / size));
              setPageSize(size);
            }}
          />
          <button
            type="button"
            className="control-surface data-table-page-button"
            aria-label={t('tablePreviousPage')}
            disabled={page === 0}
            onClick={() => setRequestedPage(page - 1)}
          >
            <ChevronLeft aria-hidden="true" />
          </button>
          <span className="data-table-page">{t('tablePageOf', { page: page + 1, pages: pageCount })}</span>
          <button
            type="button"
            className="control-surface data-table-page-button"
            aria-label={t('tableNextPage')}
            disabled={page >= pageCount - 1}
            onClick={() => setRequestedPage(page + 1)}
          >
            <ChevronRight aria-hidden="true" />
          </button>
        </div>
      ) : null}
    </div>
  );
}
