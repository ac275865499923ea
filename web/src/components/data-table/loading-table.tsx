import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { CSSProperties, ReactNode } from 'react';
import { SelectBox } from './select-box';
import type { SortDirection } from './sorting';

/**
 * A column header's text, as both tables draw it: a name for a header that shows none, the
 * header, and for a sortable column the mark of its sort.
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

/** A column header's classes in both tables: its own, and whether it sorts. */
export function headerClassName(className: string | undefined, sortable: boolean): string {
  return `${className ?? ''} ${sortable ? 'data-table-sortable' : 'data-table-plain-header'}`.trim();
}

/** What the loading table draws of a column: its header as the loaded table draws it. */
export interface LoadingColumn {
  id: string;
  header: ReactNode;
  headerLabel?: string;
  className?: string;
  sortable: boolean;
  sorted?: SortDirection;
  resizable: boolean;
  style?: CSSProperties;
}

/** Grey lines where the rows will be. */
const SKELETON_ROWS = 4;

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

/**
 * The table while its rows load: the same header, drawn with the loaded table's classes, and
 * skeleton lines in place of the body, as a plain table that is busy. react-aria's Table renders
 * twice when it mounts (once to collect its rows, once more to draw them): mounting it only once
 * the rows are there saves a phone that whole mount on every overview's start (issue 23).
 */
export function LoadingTable(props: {
  label?: string;
  columns: LoadingColumn[];
  /** The select-all box's header: the box, disabled, as the loaded table shows it with no rows. */
  selectAll?: { label: string; style?: CSSProperties };
  style?: CSSProperties;
}) {
  const { columns, selectAll } = props;
  return (
    <table className="data-table-table" aria-label={props.label} aria-busy="true" style={props.style}>
      <thead className="data-table-head">
        <tr>
          {selectAll ? (
            <th className="data-table-select" style={selectAll.style}>
              <SelectBox label={selectAll.label} isSelected={false} isDisabled />
            </th>
          ) : null}
          {columns.map((column) => (
            <th
              key={column.id}
              className={headerClassName(column.className, column.sortable)}
              style={column.style}
            >
              <HeaderLabel
                header={column.header}
                headerLabel={column.headerLabel}
                sortable={column.sortable}
                sorted={column.sorted}
              />
              {column.resizable ? <div aria-hidden="true" className="data-table-resizer" /> : null}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="data-table-body">
        <tr>
          <td colSpan={columns.length + (selectAll ? 1 : 0)}>
            <SkeletonLines />
          </td>
        </tr>
      </tbody>
    </table>
  );
}
