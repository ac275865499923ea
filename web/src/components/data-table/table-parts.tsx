import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { ReactNode } from 'react';
import type { SortDirection } from './sorting';

/**
 * A column header's text: a name for a header that shows none, the header, and for a sortable
 * column the mark of its sort.
 */
export function HeaderLabel(props: {
  id?: string;
  header: ReactNode;
  headerLabel?: string;
  sortable: boolean;
  sorted?: SortDirection;
}) {
  const { sorted } = props;
  return (
    <span id={props.id} className="data-table-header-label">
      {/* A header that shows no text still names its column, as text (an aria-label on the cell
          is not read as the column's name everywhere). */}
      {props.headerLabel ? <span className="visually-hidden">{props.headerLabel}</span> : null}
      {props.header}
      {props.sortable ? (
        <span aria-hidden="true" className="data-table-sort-mark">
          {sorted === 'ascending' ? <ArrowUp /> : sorted === 'descending' ? <ArrowDown /> : <ArrowUpDown />}
        </span>
      ) : null}
    </span>
  );
}

/** A column header's classes: its own, and whether it sorts. */
export function headerClassName(className: string | undefined, sortable: boolean): string {
  return `${className ?? ''} ${sortable ? 'data-table-sortable' : 'data-table-plain-header'}`.trim();
}

const SKELETON_ROWS = 4;

/** Grey lines where the rows will be, while the first rows load (the grid is busy). */
export function SkeletonLines() {
  return (
    <div className="data-table-skeleton" aria-hidden="true">
      {Array.from({ length: SKELETON_ROWS }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder lines have no identity
        <span key={index} className="skeleton-bar" />
      ))}
    </div>
  );
}
