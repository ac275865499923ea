import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from './column';
import { SelectBox } from './select-box';
import { SkeletonLines } from './table-parts';
import type { GridKeyboard } from './use-grid-keyboard';
import type { RowSelection } from './use-row-selection';

export interface TableBodyProps<Row> {
  columns: Column<Row>[];
  tableId: string;
  /** The rows drawn, their ids, and the index of the first in the whole list. */
  shown: Row[];
  shownIds: string[];
  firstIndex: number;
  selectable: boolean;
  selected: ReadonlySet<string>;
  selection: RowSelection;
  keyboard: GridKeyboard;
  rowLabel?(row: Row): string;
  /** Rows of a long list have a fixed height (windowing). */
  rowHeight: number | undefined;
  /** The label of each value on a phone's card (undefined on a desktop). */
  cardLabelOf: ((column: Column<Row>, index: number) => string | undefined) | null;
  skeleton: boolean;
  /** No rows at all (else no rows match the search). */
  noRows: boolean;
  emptyText: string;
  emptyIcon?: ComponentType<{ 'aria-hidden'?: boolean | 'true' }>;
  emptyAction?: { label: string; onAction(): void; disabled?: boolean };
}

/** The empty state, while loading the skeleton, else a row per shown row with its cells. */
export function TableBody<Row>(props: TableBodyProps<Row>) {
  const { columns, tableId, shown, shownIds, firstIndex, selectable, selected, selection, keyboard } = props;
  const { t } = useTranslation('components');
  const EmptyIcon = props.emptyIcon;
  const columnCount = columns.length + (selectable ? 1 : 0);
  return (
    <tbody className="data-table-body">
      {shown.length === 0 ? (
        <tr>
          <td colSpan={columnCount}>
            {props.skeleton ? (
              <SkeletonLines />
            ) : (
              <div className="data-table-empty-state">
                {EmptyIcon ? <EmptyIcon aria-hidden="true" /> : null}
                <p>{props.emptyText}</p>
                {props.noRows && props.emptyAction ? (
                  <button
                    type="button"
                    className="button button-primary"
                    disabled={props.emptyAction.disabled}
                    onClick={props.emptyAction.onAction}
                  >
                    {props.emptyAction.label}
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
        const name = props.rowLabel?.(row);
        const isSelected = selected.has(id);
        return (
          <tr
            key={id}
            ref={keyboard.rowRef(id)}
            data-row-id={id}
            className="data-table-row"
            aria-rowindex={index + 2}
            aria-selected={selectable ? isSelected : undefined}
            data-selected={isSelected || undefined}
            aria-labelledby={`${tableId}-row-${index}`}
            tabIndex={id === keyboard.tabStopId ? 0 : -1}
            onClick={(event) => keyboard.onRowClick(event, index)}
            style={props.rowHeight !== undefined ? { height: props.rowHeight } : undefined}
          >
            {selectable ? (
              <td className="data-table-select">
                <SelectBox
                  label={name ? t('tableSelectNamedRow', { name }) : t('tableSelectRow')}
                  isSelected={isSelected}
                  onChange={() => selection.toggle(id)}
                />
              </td>
            ) : null}
            {columns.map((column, columnIndex) => (
              <td
                key={column.id}
                id={columnIndex === 0 ? `${tableId}-row-${index}` : undefined}
                role={columnIndex === 0 ? 'rowheader' : undefined}
                className={column.className}
                data-label={props.cardLabelOf ? props.cardLabelOf(column, columnIndex) : undefined}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        );
      })}
    </tbody>
  );
}
