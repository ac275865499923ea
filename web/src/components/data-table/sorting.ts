export type SortDirection = 'ascending' | 'descending';

export interface SortState {
  columnId: string;
  direction: SortDirection;
}

export type SortValue = string | number | boolean | Date | null | undefined;

// Numeric collation so that 'File 10' sorts after 'File 9'; base sensitivity ignores case and accents.
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function isMissing(value: SortValue): value is null | undefined {
  return value === null || value === undefined || value === '';
}

/** Compares two sort values ascending; empty values always go last, whatever the direction. */
export function compareSortValues(a: SortValue, b: SortValue): number {
  if (a instanceof Date) a = a.getTime();
  if (b instanceof Date) b = b.getTime();
  if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collator.compare(String(a), String(b));
}

/** A stable sort of `rows` by `value`; rows without a value stay at the end in both directions. */
export function sortRows<Row>(
  rows: readonly Row[],
  value: (row: Row) => SortValue,
  direction: SortDirection,
): Row[] {
  const sign = direction === 'ascending' ? 1 : -1;
  const keyed = rows.map((row, index) => ({ row, index, key: value(row) }));
  keyed.sort((x, y) => {
    const xMissing = isMissing(x.key);
    const yMissing = isMissing(y.key);
    if (xMissing || yMissing) return xMissing === yMissing ? x.index - y.index : xMissing ? 1 : -1;
    return sign * compareSortValues(x.key, y.key) || x.index - y.index;
  });
  return keyed.map((entry) => entry.row);
}

/** Rows whose search text contains every whitespace-separated term of `search`, ignoring case. */
export function filterRows<Row>(rows: readonly Row[], search: string, text: (row: Row) => string): Row[] {
  const terms = search.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [...rows];
  return rows.filter((row) => {
    const haystack = text(row).toLocaleLowerCase();
    return terms.every((term) => haystack.includes(term));
  });
}
