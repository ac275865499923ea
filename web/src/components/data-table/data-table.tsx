import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, type LucideIcon } from 'lucide-react';
import {
  type ComponentType,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type UIEvent,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../form/select';
import { ColumnResizer, MIN_COLUMN_WIDTH } from './column-resizer';
import { filterRows, type SortDirection, type SortState, type SortValue, sortRows } from './sorting';
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

/** Skeleton rows drawn while a table loads. */
const SKELETON_ROWS = 4;
/** On a phone (cards): the height of one card line, and the card's padding. */
const CARD_LINE_HEIGHT = 28;
const CARD_PADDING = 24;
/** At or below this width the rows are cards (matches the CSS breakpoint). */
export const CARD_BREAKPOINT = 640;
/** The key of the checkbox column among the resized widths. */
const SELECT_COLUMN = '__select';

const NO_SELECTION = new Set<string>();

function isInteractive(target: EventTarget | null, row: HTMLElement): boolean {
  for (
    let node = target instanceof HTMLElement ? target : null;
    node && node !== row;
    node = node.parentElement
  ) {
    if (
      node.matches('a, button, input, select, textarea, label, [role="button"], [contenteditable="true"]')
    ) {
      return true;
    }
  }
  return false;
}

/**
 * The sortable, searchable, selectable table of the overview screens (contacts, images,
 * bibliography, documents). Keyboard: arrows move between rows, Space toggles the selection,
 * Enter activates, Delete deletes.
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
  const [activeId, setActiveId] = useState<string | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const focusPending = useRef(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);

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

  const indexOfId = useMemo(() => new Map(orderedIds.map((id, index) => [id, index])), [orderedIds]);

  // The row that takes Tab focus: the last one focused while it is still shown, else the first shown.
  const activeIndex = activeId !== null ? indexOfId.get(activeId) : undefined;
  const tabStopId =
    activeIndex !== undefined && activeIndex >= firstIndex && activeIndex < lastIndex
      ? activeId
      : shown.length > 0
        ? orderedIds[firstIndex]
        : null;

  useEffect(() => {
    if (!focusPending.current || activeId === null) return;
    focusPending.current = false;
    const element = bodyRef.current?.querySelector<HTMLElement>(`tr[data-row-id="${CSS.escape(activeId)}"]`);
    element?.focus();
  });

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
    focusPending.current = true;
    setActiveId(orderedIds[target]);
  };

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange?.(next);
  };

  const selectedCount = orderedIds.reduce((count, id) => count + (selected.has(id) ? 1 : 0), 0);
  const allSelected = orderedIds.length > 0 && selectedCount === orderedIds.length;
  const someSelected = selectedCount > 0 && !allSelected;

  const selectAll = (checked: boolean) => {
    const next = new Set(selected);
    for (const id of orderedIds) {
      if (checked) next.add(id);
      else next.delete(id);
    }
    onSelectedChange?.(next);
  };

  const changeSort = (column: Column<Row>) => {
    const direction: SortDirection =
      sort?.columnId === column.id && sort.direction === 'ascending' ? 'descending' : 'ascending';
    const next = { columnId: column.id, direction };
    setOwnSort(next);
    props.onSortChange?.(next);
  };

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, row: Row, index: number) => {
    // Keys typed into a button or field inside the row belong to that control.
    if (event.target !== event.currentTarget) return;
    switch (event.key) {
      case 'ArrowDown':
        focusRow(index + 1);
        break;
      case 'ArrowUp':
        focusRow(index - 1);
        break;
      case 'Home':
        focusRow(0);
        break;
      case 'End':
        focusRow(ordered.length - 1);
        break;
      case ' ':
      case 'Spacebar':
        if (!selectable) return;
        toggle(getRowId(row));
        break;
      case 'Enter':
        if (!onActivate) return;
        onActivate(row);
        break;
      case 'Delete':
        if (!onDelete) return;
        onDelete(row);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const onRowClick = (event: MouseEvent<HTMLTableRowElement>, id: string) => {
    setActiveId(id);
    if (!isInteractive(event.target, event.currentTarget)) event.currentTarget.focus();
  };

  // The first resize freezes every column at its laid-out width, so that the table grows or shrinks
  // by what the user changes instead of spreading it over the other columns.
  const headerRow = useRef<HTMLTableRowElement>(null);
  const resizeColumn = (columnId: string, next: number) => {
    setWidths((current) => {
      const base = { ...current };
      if (Object.keys(base).length === 0) {
        for (const cell of headerRow.current?.querySelectorAll<HTMLElement>('th[data-column-id]') ?? []) {
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

  const columnCount = visibleColumns.length + (selectable ? 1 : 0);
  const emptyText = rows.length === 0 ? emptyMessage : (noMatchMessage ?? emptyMessage);
  const skeleton = loading && rows.length === 0;

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
        <table
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: focusable, selectable rows are the grid pattern
          role="grid"
          aria-label={label}
          aria-multiselectable={selectable || undefined}
          aria-rowcount={ordered.length + 1}
          aria-busy={skeleton || undefined}
          className="data-table-table"
          style={frozenWidth > 0 && !cards ? { tableLayout: 'fixed', width: frozenWidth } : undefined}
        >
          <thead>
            <tr ref={headerRow} aria-rowindex={1}>
              {selectable ? (
                <th
                  scope="col"
                  className="data-table-select"
                  data-column-id={SELECT_COLUMN}
                  style={widths[SELECT_COLUMN] && !cards ? { width: widths[SELECT_COLUMN] } : undefined}
                >
                  <input
                    type="checkbox"
                    aria-label={t('tableSelectAll')}
                    checked={allSelected}
                    disabled={ordered.length === 0}
                    ref={(box) => {
                      if (box) box.indeterminate = someSelected;
                    }}
                    onChange={(event) => selectAll(event.target.checked)}
                  />
                </th>
              ) : null}
              {visibleColumns.map((column, columnIndex) => {
                const sorted = sort?.columnId === column.id ? sort.direction : undefined;
                const width = widths[column.id];
                const name =
                  column.headerLabel ?? (typeof column.header === 'string' ? column.header : column.id);
                return (
                  <th
                    key={column.id}
                    scope="col"
                    className={`${column.className ?? ''}${column.sortValue ? '' : ' data-table-plain-header'}`.trim()}
                    aria-sort={column.sortValue ? (sorted ?? 'none') : undefined}
                    data-column-id={column.id}
                    aria-labelledby={resizable && !cards ? `${tableId}-${column.id}` : undefined}
                    style={width && !cards ? { width } : undefined}
                  >
                    {/* The column's name is its label only, not the resize handle's. A header
                        that shows no text still names its column, as text (an aria-label on the
                        cell is not read as the column's name everywhere). */}
                    <span id={`${tableId}-${column.id}`} className="data-table-header-label">
                      {column.headerLabel ? (
                        <span className="visually-hidden">{column.headerLabel}</span>
                      ) : null}
                      {column.sortValue ? (
                        <button type="button" className="data-table-sort" onClick={() => changeSort(column)}>
                          {column.header}
                          <span aria-hidden="true" className="data-table-sort-mark">
                            {sorted === 'ascending' ? (
                              <ArrowUp />
                            ) : sorted === 'descending' ? (
                              <ArrowDown />
                            ) : (
                              <ArrowUpDown />
                            )}
                          </span>
                        </button>
                      ) : (
                        column.header
                      )}
                    </span>
                    {resizable && !cards && columnIndex < visibleColumns.length - 1 ? (
                      <ColumnResizer
                        label={t('tableResizeColumn', { name })}
                        width={width}
                        onResize={(next) =>
                          setWidths((current) => ({
                            ...current,
                            [column.id]: Math.max(MIN_COLUMN_WIDTH, next),
                          }))
                        }
                      />
                    ) : null}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody ref={bodyRef}>
            {skeleton
              ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey lint/a11y/noAriaHiddenOnFocusable: placeholder rows have no identity and are never focusable
                  <tr key={index} aria-hidden="true" className="data-table-skeleton">
                    {Array.from({ length: columnCount }, (_, cell) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
                      <td key={cell}>
                        <span className="skeleton-bar" />
                      </td>
                    ))}
                  </tr>
                ))
              : null}
            {ordered.length === 0 && !skeleton ? (
              <tr className="data-table-empty">
                <td colSpan={columnCount}>
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
                </td>
              </tr>
            ) : null}
            {rowWindow && rowWindow.before > 0 ? (
              // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row has no content and is never focusable
              <tr aria-hidden="true" className="data-table-spacer" style={{ height: rowWindow.before }} />
            ) : null}
            {shown.map((row, offset) => {
              const index = firstIndex + offset;
              const id = getRowId(row);
              const isSelected = selected.has(id);
              const name = rowLabel?.(row);
              return (
                <tr
                  key={id}
                  data-row-id={id}
                  aria-rowindex={index + 2}
                  aria-selected={selectable ? isSelected : undefined}
                  tabIndex={id === tabStopId ? 0 : -1}
                  className={isSelected ? 'data-table-row data-table-row-selected' : 'data-table-row'}
                  style={virtual ? { height: rowHeight } : undefined}
                  onKeyDown={(event) => onRowKeyDown(event, row, index)}
                  onClick={(event) => onRowClick(event, id)}
                  onFocus={(event) => {
                    if (event.target === event.currentTarget) setActiveId(id);
                  }}
                >
                  {selectable ? (
                    <td className="data-table-select">
                      <input
                        type="checkbox"
                        tabIndex={-1}
                        aria-label={name ? t('tableSelectNamedRow', { name }) : t('tableSelectRow')}
                        checked={isSelected}
                        onChange={() => toggle(id)}
                      />
                    </td>
                  ) : null}
                  {visibleColumns.map((column, columnIndex) => (
                    <td
                      key={column.id}
                      className={column.className}
                      data-label={cards ? cardLabelOf(column, columnIndex) : undefined}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              );
            })}
            {rowWindow && rowWindow.after > 0 ? (
              // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row has no content and is never focusable
              <tr aria-hidden="true" className="data-table-spacer" style={{ height: rowWindow.after }} />
            ) : null}
          </tbody>
        </table>
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
            className="data-table-page-button"
            aria-label={t('tablePreviousPage')}
            disabled={page === 0}
            onClick={() => setRequestedPage(page - 1)}
          >
            <ChevronLeft aria-hidden="true" />
          </button>
          <span className="data-table-page">{t('tablePageOf', { page: page + 1, pages: pageCount })}</span>
          <button
            type="button"
            className="data-table-page-button"
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
