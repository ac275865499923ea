import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Select } from '../form/select';
import type { TableRows } from './use-table-rows';

/** Under a paged table: which rows are shown, rows per page, the previous and next page. */
export function TablePager<Row>({
  rows,
  pageSizeOptions,
}: {
  rows: TableRows<Row>;
  pageSizeOptions: number[];
}) {
  const { t } = useTranslation('components');
  const { firstIndex, lastIndex, ordered, pageSize, page, pageCount, setRequestedPage } = rows;
  return (
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
          rows.setPageSize(size);
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
  );
}
