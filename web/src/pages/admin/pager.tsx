import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Previous/next for a list paged on the server, with where we are. */
export function Pager({
  page,
  pageSize,
  total,
  capped = false,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** More entries exist than `total` says (the server stopped counting). */
  capped?: boolean;
  onPage(page: number): void;
}) {
  const { t } = useTranslation('admin');
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="admin-pager" aria-label={t('pager.label')}>
      <button
        type="button"
        className="button"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={t('pager.previous')}
        title={t('pager.previous')}
      >
        <ChevronLeft aria-hidden="true" />
      </button>
      <span className="admin-pager-status" aria-live="polite">
        {capped ? t('pager.statusCapped', { page, pages }) : t('pager.status', { page, pages, count: total })}
      </span>
      <button
        type="button"
        className="button"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        aria-label={t('pager.next')}
        title={t('pager.next')}
      >
        <ChevronRight aria-hidden="true" />
      </button>
    </nav>
  );
}
