import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from './column';
import { ColumnResizer } from './column-resizer';
import { SelectBox } from './select-box';
import type { SortState } from './sorting';
import { HeaderLabel, headerClassName } from './table-parts';
import type { RowSelection } from './use-row-selection';

/** The id of the checkbox column (also its key among the resized widths). */
export const SELECT_COLUMN = '__select';

export interface TableHeadProps<Row> {
  columns: Column<Row>[];
  tableId: string;
  selectable: boolean;
  selection: RowSelection;
  /** No rows to select: the select-all box is disabled. */
  empty: boolean;
  sort: SortState | null;
  sortBy(columnId: string): void;
  widths: Readonly<Record<string, number>>;
  widthOf(id: string): CSSProperties | undefined;
  hasResizer(columnIndex: number): boolean;
  resizeColumn(columnId: string, width: number): void;
}

/** The header row: the select-all box, then each column's label, sort state and resize handle. */
export function TableHead<Row>({
  columns,
  tableId,
  selectable,
  selection,
  empty,
  sort,
  sortBy,
  widths,
  widthOf,
  hasResizer,
  resizeColumn,
}: TableHeadProps<Row>) {
  const { t } = useTranslation('components');
  return (
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
              isSelected={selection.allSelected}
              isIndeterminate={selection.someSelected}
              isDisabled={empty}
              onChange={selection.selectAll}
            />
          </th>
        ) : null}
        {columns.map((column, columnIndex) => {
          const name = column.headerLabel ?? (typeof column.header === 'string' ? column.header : column.id);
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
              aria-sort={sortable ? (sort?.columnId === column.id ? sort.direction : 'none') : undefined}
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
  );
}
