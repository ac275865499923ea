import { ChevronLeft, ChevronRight, type LucideIcon } from 'lucide-react';
import {
  type ComponentType,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  type UIEvent,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  Column as AriaColumn,
  Row as AriaRow,
  Cell,
  type Selection,
  type SortDescriptor,
  Table,
  TableBody,
  TableHeader,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Select } from '../form/select';
import { ColumnResizer, MIN_COLUMN_WIDTH } from './column-resizer';
import { HeaderLabel, headerClassName, LoadingTable, SkeletonLines } from './loading-table';
import { SelectBox } from './select-box';
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

/** On a phone (cards): the height of one card line, and the card's padding. */
const CARD_LINE_HEIGHT = 28;
const CARD_PADDING = 24;
/** At or below this width the rows are cards (matches the CSS breakpoint). */
export const CARD_BREAKPOINT = 640;
/** The id of the checkbox column (also its key among the resized widths). */
const SELECT_COLUMN = '__select';

const NO_SELECTION = new Set<string>();

/** Whether the event comes from a control of its own inside the row (a link, a button, a field). */
function isInteractive(target: EventTarget | null, row: Element | null): boolean {
  for (
    let node = target instanceof HTMLElement ? target : null;
    node && node !== row;
    node = node.parentElement
  ) {
    if (node.matches('[role="row"]')) return false;
    if (
      node.matches('a, button, input, select, textarea, label, [role="button"], [contenteditable="true"]')
    ) {
      return true;
    }
  }
  return false;
}

/**
 * A cell's content. A press, a key or a click (also the one Enter makes on a button, which
 * react-aria takes for a screen reader's) on a control inside it (a title's link, a row's button)
 * belongs to that control: the row does not also select itself.
 */
function CellContent({ children }: { children: ReactNode }) {
  const own = (event: PointerEvent<HTMLElement> | MouseEvent<HTMLElement> | KeyboardEvent<HTMLElement>) => {
    if (!isInteractive(event.target, event.currentTarget.parentElement)) return;
    if ('key' in event && event.key !== 'Enter' && event.key !== ' ' && event.key !== 'Spacebar') return;
    event.stopPropagation();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: it only keeps its controls' events from the row
    <div className="data-table-cell" onPointerDown={own} onMouseDown={own} onClick={own} onKeyDown={own}>
      {children}
    </div>
  );
}

/**
 * The sortable, searchable, selectable table of the overview screens, on react-aria's Table (the
 * grid pattern). Keyboard: arrows move between rows (on to the next page, or through a long
 * list), Space toggles the selection, Enter activates, Delete deletes; a click on a selectable
 * row toggles its selection.
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
  const skeleton = loading && rows.length === 0;
  // The first load draws the light loading table; once react-aria's table is there it stays (a
  // later load of an empty list shows skeleton lines in its body), so that no focus in it is lost.
  const [tableShown, setTableShown] = useState(!skeleton);
  if (!skeleton && !tableShown) setTableShown(true);

  // react-aria's table knows the rows it draws (a page, or the window of a long list); the grid's
  // row count and each row's index tell assistive technology where they are in the whole list.
  // (react-aria's Table passes neither on, nor aria-busy while the rows load.)
  useLayoutEffect(() => {
    if (skeleton) tableRef.current?.setAttribute('aria-busy', 'true');
    else tableRef.current?.removeAttribute('aria-busy');
    tableRef.current?.setAttribute('aria-rowcount', String(ordered.length + 1));
    tableRef.current?.querySelector('thead tr')?.setAttribute('aria-rowindex', '1');
  });
  // react-aria draws the rows after this component's effects: a row the keyboard moved to (on
  // another page, further down a long list) takes the focus when it is drawn.
  const rowRef = (index: number, id: string) => (element: HTMLElement | null) => {
    if (!element) return;
    element.setAttribute('aria-rowindex', String(index + 2));
    if (focusPending.current === id) {
      focusPending.current = null;
      element.focus();
    }
  };
  // A header's name is its label only, not its resize handle's.
  const headerNameRef = (labelId: string | null) => (element: HTMLElement | null) => {
    if (!element) return;
    if (labelId) element.setAttribute('aria-labelledby', labelId);
    else element.removeAttribute('aria-labelledby');
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
    // Out of react-aria's sight until it is drawn: its focus leaves the table, so that it does not
    // move the focus itself to the row nearest to the one that went out of view.
    if (target < firstIndex || target >= lastIndex) (document.activeElement as HTMLElement | null)?.blur();
    focusPending.current = orderedIds[target];
    // Drawn already: focus it now (the effect finds nothing new to draw).
    const element = tableRef.current?.querySelector<HTMLElement>(
      `tr[data-row-id="${CSS.escape(orderedIds[target])}"]`,
    );
    if (element && target >= firstIndex && target < lastIndex) {
      focusPending.current = null;
      element.focus();
    }
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

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange?.(next);
  };

  // react-aria's selection: Space, a click on the row, Ctrl+A ('all': every row of the list, not
  // only those drawn).
  const onSelectionChange = (keys: Selection) => {
    if (keys === 'all') selectAll(true);
    else onSelectedChange?.(new Set([...keys].map(String)));
  };

  const onSortChange = (descriptor: SortDescriptor) => {
    const columnId = String(descriptor.column);
    // The first press on a column sorts it ascending, the next one flips it.
    const direction: SortDirection =
      sort?.columnId === columnId && sort.direction === 'ascending' ? 'descending' : 'ascending';
    const next = { columnId, direction };
    setOwnSort(next);
    props.onSortChange?.(next);
  };

  // Keys react-aria leaves to the table: Enter activates and Delete deletes the focused row; the
  // arrows, Home and End go on past the rows drawn (the next page, the rest of a long list).
  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (target.getAttribute('role') !== 'row' || !target.dataset.rowId) return;
    const index = indexOfId.get(target.dataset.rowId);
    if (index === undefined) return;
    const row = ordered[index];
    // A key the table handles goes no further (no scrolling, no react-aria selection).
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    const move = (to: number) => {
      handled();
      focusRow(to);
    };
    const handRowTo = (callback: ((row: Row) => void) | undefined) => {
      if (!callback) return;
      handled();
      callback(row);
    };
    switch (event.key) {
      case 'Enter':
        handRowTo(onActivate);
        return;
      case 'Delete':
        handRowTo(onDelete);
        return;
      case 'ArrowDown':
        if (index + 1 >= lastIndex) move(index + 1);
        return;
      case 'ArrowUp':
        if (index - 1 < firstIndex) move(index - 1);
        return;
      case 'Home':
        move(0);
        return;
      case 'End':
        move(ordered.length - 1);
        return;
      default:
        return;
    }
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
  const sortDescriptor: SortDescriptor | undefined = sort
    ? { column: sort.columnId, direction: sort.direction }
    : undefined;
  const widthOf = (id: string) => (widths[id] && !cards ? { width: widths[id] } : undefined);
  // Every header but the last has a resize handle on a desktop.
  const hasResizer = (columnIndex: number) => resizable && !cards && columnIndex < visibleColumns.length - 1;
  const tableStyle =
    frozenWidth > 0 && !cards ? ({ tableLayout: 'fixed', width: frozenWidth } as const) : undefined;

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
        onKeyDownCapture={onKeyDownCapture}
        data-virtual={virtual || undefined}
      >
        {rowWindow && rowWindow.before > 0 ? (
          <div aria-hidden="true" className="data-table-spacer" style={{ height: rowWindow.before }} />
        ) : null}
        {!tableShown ? (
          <LoadingTable
            label={label}
            style={tableStyle}
            selectAll={selectable ? { label: t('tableSelectAll'), style: widthOf(SELECT_COLUMN) } : undefined}
            columns={visibleColumns.map((column, columnIndex) => ({
              id: column.id,
              header: column.header,
              headerLabel: column.headerLabel,
              className: column.className,
              sortable: Boolean(column.sortValue),
              sorted: sort?.columnId === column.id ? sort.direction : undefined,
              resizable: hasResizer(columnIndex),
              style: widthOf(column.id),
            }))}
          />
        ) : (
          <Table
            ref={tableRef}
            aria-label={label}
            className="data-table-table"
            style={tableStyle}
            selectionMode={selectable ? 'multiple' : 'none'}
            selectionBehavior="toggle"
            selectedKeys={selectable ? selected : undefined}
            onSelectionChange={onSelectionChange}
            sortDescriptor={sortDescriptor}
            onSortChange={onSortChange}
          >
            <TableHeader className="data-table-head">
              {selectable ? (
                <AriaColumn
                  id={SELECT_COLUMN}
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
                </AriaColumn>
              ) : null}
              {visibleColumns.map((column, columnIndex) => {
                const name =
                  column.headerLabel ?? (typeof column.header === 'string' ? column.header : column.id);
                return (
                  <AriaColumn
                    key={column.id}
                    id={column.id}
                    isRowHeader={columnIndex === 0}
                    allowsSorting={Boolean(column.sortValue)}
                    className={headerClassName(column.className, Boolean(column.sortValue))}
                    data-column-id={column.id}
                    ref={headerNameRef(resizable && !cards ? `${tableId}-${column.id}` : null)}
                    style={widthOf(column.id)}
                  >
                    {({ sortDirection: sorted }) => (
                      <>
                        <HeaderLabel
                          id={`${tableId}-${column.id}`}
                          header={column.header}
                          headerLabel={column.headerLabel}
                          sortable={Boolean(column.sortValue)}
                          sorted={sorted}
                        />
                        {hasResizer(columnIndex) ? (
                          <ColumnResizer
                            columnId={column.id}
                            label={t('tableResizeColumn', { name })}
                            width={widths[column.id]}
                            onResize={(next) => resizeColumn(column.id, next)}
                          />
                        ) : null}
                      </>
                    )}
                  </AriaColumn>
                );
              })}
            </TableHeader>
            <TableBody
              className="data-table-body"
              renderEmptyState={() =>
                skeleton ? (
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
                )
              }
            >
              {shown.map((row, offset) => {
                const id = getRowId(row);
                const name = rowLabel?.(row);
                return (
                  <AriaRow
                    key={id}
                    id={id}
                    textValue={name}
                    data-row-id={id}
                    ref={rowRef(firstIndex + offset, id)}
                    className="data-table-row"
                    style={virtual ? { height: rowHeight } : undefined}
                  >
                    {selectable ? (
                      <Cell className="data-table-select">
                        <SelectBox
                          label={name ? t('tableSelectNamedRow', { name }) : t('tableSelectRow')}
                          isSelected={selected.has(id)}
                          onChange={() => toggle(id)}
                        />
                      </Cell>
                    ) : null}
                    {visibleColumns.map((column, columnIndex) => (
                      <Cell
                        key={column.id}
                        className={column.className}
                        data-label={cards ? cardLabelOf(column, columnIndex) : undefined}
                      >
                        <CellContent>{column.cell(row)}</CellContent>
                      </Cell>
                    ))}
                  </AriaRow>
                );
              })}
            </TableBody>
          </Table>
        )}
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
