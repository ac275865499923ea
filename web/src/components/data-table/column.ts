import type { ReactNode } from 'react';
import type { SortValue } from './sorting';

/** A column of a data table: its header, how a row's cell is drawn, and how it sorts. */
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
