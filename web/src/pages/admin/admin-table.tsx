import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';

/**
 * A staff-area table: rows known by their id, all on one page (the server pages the lists), and
 * 'Loading…' until the answer comes, then `empty` when there are no rows.
 */
export function AdminTable<Row extends { id: number | string }>({
  rows,
  columns,
  label,
  loading,
  empty,
  onActivate,
}: {
  rows: Row[];
  columns: Column<Row>[];
  label: string;
  loading: boolean;
  empty: string;
  onActivate?(row: Row): void;
}) {
  const { t } = useTranslation('admin');
  return (
    <DataTable
      rows={rows}
      columns={columns}
      getRowId={(row) => String(row.id)}
      label={label}
      emptyMessage={loading ? t('loading') : empty}
      onActivate={onActivate}
      paged={false}
      className="admin-table"
    />
  );
}
