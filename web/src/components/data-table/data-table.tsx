import type { LucideIcon } from 'lucide-react';
import { type ComponentType, type UIEvent, useId, useRef, useState } from 'react';
import type { Column } from './column';
import { MIN_COLUMN_WIDTH } from './column-resizer';
import type { SortState } from './sorting';
import { TableBody } from './table-body';
import { TableHead } from './table-head';
import { TablePager } from './table-pager';
import { useGridKeyboard } from './use-grid-keyboard';
import { useRowSelection } from './use-row-selection';
import { useTableRows } from './use-table-rows';
import { tableScrollHeight, useWindowSize } from './use-window-size';
import './data-table.css';

export type { Column } from './column';
export type { SortDirection, SortState, SortValue } from './sorting';

/** Spec section 9: table defaults. */
export const DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_PAGE_SIZE_OPTIONS = [5, 10, 15, 20, 25];
/** Unpaged tables with more rows than this render only the rows in view. */
export const DEFAULT_VIRTUALIZE_ABOVE = 200;
export const DEFAULT_ROW_HEIGHT = 40;

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
const NO_SELECTION = new Set<string>();
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
    selectable = false,
    selected = NO_SELECTION,
    paged = true,
    virtualizeAbove = DEFAULT_VIRTUALIZE_ABOVE,
    className,
    loading = false,
    loadingMessage,
    resizable = true,
  } = props;
  const { height: windowHeight, width: windowWidth } = useWindowSize();
  const cards = windowWidth <= CARD_BREAKPOINT;
  const scrollHeight = tableScrollHeight(windowHeight);
  const tableId = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);

  const visibleColumns = columns.filter((column) => !column.hidden);
  // A card is one line per value (the title may take two): virtual lists need its height.
  const rowHeight = cards
    ? (visibleColumns.length + 1) * CARD_LINE_HEIGHT + CARD_PADDING
    : (props.rowHeight ?? DEFAULT_ROW_HEIGHT);

  const shownRows = useTableRows({
    rows,
    columns,
    getRowId: props.getRowId,
    search: props.search ?? '',
    searchText: props.searchText,
    paged,
    virtualizeAbove,
    rowHeight,
    scrollHeight,
    sort: props.sort,
    defaultSort: props.defaultSort,
    onSortChange: props.onSortChange,
    initialPageSize: props.pageSize ?? DEFAULT_PAGE_SIZE,
  });
  const { ordered, rowWindow, virtual } = shownRows;
  const skeleton = loading && rows.length === 0;
  const selection = useRowSelection(
    shownRows.orderedIds,
    shownRows.indexOfId,
    selected,
    props.onSelectedChange,
  );
  const keyboard = useGridKeyboard({
    tableRef,
    scrollRef,
    rows: shownRows,
    selection,
    selectable,
    paged,
    rowHeight,
    scrollHeight,
    rowLabel: props.rowLabel,
    onActivate: props.onActivate,
    onDelete: props.onDelete,
  });
  const { widths, resizeColumn } = useColumnWidths(tableRef);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    if (virtual) shownRows.setScrollTop(event.currentTarget.scrollTop);
  };

  const frozenWidth = Object.values(widths).reduce((sum, width) => sum + width, 0);
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
        data-virtual={virtual || undefined}
      >
        {rowWindow && rowWindow.before > 0 ? (
          <div aria-hidden="true" className="data-table-spacer" style={{ height: rowWindow.before }} />
        ) : null}
        <table
          ref={tableRef}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a table with the grid role is the grid pattern's own markup (its cells become gridcells)
          role="grid"
          aria-label={props.label}
          aria-multiselectable={selectable || undefined}
          aria-rowcount={ordered.length + 1}
          aria-busy={skeleton || undefined}
          className="data-table-table"
          style={tableStyle}
          onKeyDown={keyboard.onKeyDown}
          onFocus={keyboard.onFocus}
          onBlur={keyboard.onBlur}
        >
          <TableHead
            columns={visibleColumns}
            tableId={tableId}
            selectable={selectable}
            selection={selection}
            empty={ordered.length === 0}
            sort={shownRows.sort}
            sortBy={shownRows.sortBy}
            widths={widths}
            widthOf={widthOf}
            hasResizer={hasResizer}
            resizeColumn={resizeColumn}
          />
          <TableBody
            columns={visibleColumns}
            tableId={tableId}
            shown={shownRows.shown}
            shownIds={shownRows.shownIds}
            firstIndex={shownRows.firstIndex}
            selectable={selectable}
            selected={selected}
            selection={selection}
            keyboard={keyboard}
            rowLabel={props.rowLabel}
            rowHeight={virtual ? rowHeight : undefined}
            cardLabelOf={cards ? cardLabelOf : null}
            skeleton={skeleton}
            noRows={rows.length === 0}
            emptyText={rows.length === 0 ? props.emptyMessage : (props.noMatchMessage ?? props.emptyMessage)}
            emptyIcon={props.emptyIcon}
            emptyAction={props.emptyAction}
          />
        </table>
        {rowWindow && rowWindow.after > 0 ? (
          <div aria-hidden="true" className="data-table-spacer" style={{ height: rowWindow.after }} />
        ) : null}
      </div>
      {paged && ordered.length > 0 && !skeleton ? (
        <TablePager rows={shownRows} pageSizeOptions={props.pageSizeOptions ?? DEFAULT_PAGE_SIZE_OPTIONS} />
      ) : null}
    </div>
  );
}

/** The label of a value on a phone's card: its own, else a text header; none for the first column (the card's title). */
function cardLabelOf<Row>(column: Column<Row>, index: number): string | undefined {
  if (column.cardLabel !== undefined) return column.cardLabel || undefined;
  // The first column is the card's title; a column without a text header needs no label.
  if (index === 0) return undefined;
  return typeof column.header === 'string' && column.header ? column.header : undefined;
}

/**
 * The widths the user gave the columns. The first resize freezes every column at its laid-out
 * width, so that the table grows or shrinks by what the user changes instead of spreading it over
 * the other columns.
 */
function useColumnWidths(tableRef: { current: HTMLTableElement | null }) {
  const [widths, setWidths] = useState<Record<string, number>>({});
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
  return { widths, resizeColumn };
}
