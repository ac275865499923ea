import { useMemo, useRef, useState } from 'react';
import type { Column } from './column';
import { filterRows, type SortDirection, type SortState, sortRows } from './sorting';
import { computeWindow, type RowWindow } from './windowing';

export interface TableRowsOptions<Row> {
  rows: Row[];
  columns: Column<Row>[];
  getRowId(row: Row): string;
  search: string;
  searchText?(row: Row): string;
  paged: boolean;
  virtualizeAbove: number;
  rowHeight: number;
  /** The height of the table's scrolling area. */
  scrollHeight: number;
  /** Controlled sort (undefined: the table keeps its own, starting at defaultSort). */
  sort?: SortState | null;
  defaultSort?: SortState | null;
  onSortChange?(sort: SortState): void;
  initialPageSize: number;
}

/** The rows a table shows: searched, sorted, and cut to the page or to the window of a long list. */
export interface TableRows<Row> {
  sort: SortState | null;
  sortBy(columnId: string): void;
  /** Every matching row in order, and their ids. */
  ordered: Row[];
  orderedIds: string[];
  indexOfId: ReadonlyMap<string, number>;
  pageSize: number;
  setPageSize(size: number): void;
  page: number;
  pageCount: number;
  setRequestedPage(page: number): void;
  /** An unpaged list long enough to draw only the rows in view. */
  virtual: boolean;
  rowWindow: RowWindow | null;
  scrollTop: number;
  setScrollTop(top: number): void;
  /** The rows drawn: ordered[firstIndex..lastIndex). */
  firstIndex: number;
  lastIndex: number;
  shown: Row[];
  shownIds: string[];
}

/** The data table's state of its rows: sort, search, page and window. */
export function useTableRows<Row>(options: TableRowsOptions<Row>): TableRows<Row> {
  const { rows, columns, getRowId, search, searchText, paged, virtualizeAbove, rowHeight, scrollHeight } =
    options;
  const [ownSort, setOwnSort] = useState<SortState | null>(options.defaultSort ?? null);
  const sort = options.sort !== undefined ? options.sort : ownSort;
  const [pageSize, setPageSize] = useState(options.initialPageSize);
  const [requestedPage, setRequestedPage] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);

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

  const sortBy = (columnId: string) => {
    // The first press on a column sorts it ascending, the next one flips it.
    const direction: SortDirection =
      sort?.columnId === columnId && sort.direction === 'ascending' ? 'descending' : 'ascending';
    const next = { columnId, direction };
    setOwnSort(next);
    options.onSortChange?.(next);
  };

  return {
    sort,
    sortBy,
    ordered,
    orderedIds,
    indexOfId,
    pageSize,
    setPageSize,
    page,
    pageCount,
    setRequestedPage,
    virtual,
    rowWindow,
    scrollTop,
    setScrollTop,
    firstIndex,
    lastIndex,
    shown: ordered.slice(firstIndex, lastIndex),
    shownIds: orderedIds.slice(firstIndex, lastIndex),
  };
}
