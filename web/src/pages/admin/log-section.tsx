import type { AdminLogEntry } from '@scriptorium/common/api/admin';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import type { Column } from '../../components/data-table/data-table';
import { useAdminFormat } from './admin-format';
import { AdminTable } from './admin-table';
import { Pager } from './pager';
import { useAdminQuery } from './use-admin-query';

/** A change as "before → after", anything else as its JSON text. */
function detailText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) =>
      Array.isArray(value) && value.length === 2
        ? `${key}: ${JSON.stringify(value[0])} → ${JSON.stringify(value[1])}`
        : `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
    )
    .join('; ');
}

/** /admin/log/: every staff action, newest first. */
export function LogSection() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const [page, setPage] = useState(1);
  const load = useCallback(() => call(adminApi.log, { page }), [page]);
  const { data, loading } = useAdminQuery(load, t('log.loadError'));

  const columns: Column<AdminLogEntry>[] = [
    { id: 'when', header: t('log.columns.when'), cell: (entry) => format.date(entry.created) },
    { id: 'who', header: t('log.columns.who'), cell: (entry) => entry.actor },
    { id: 'what', header: t('log.columns.what'), cell: (entry) => t(`log.actions.${entry.action}`) },
    { id: 'target', header: t('log.columns.target'), cell: (entry) => entry.target },
    {
      id: 'details',
      header: t('log.columns.details'),
      className: 'admin-col-minor admin-col-details',
      cell: (entry) => detailText(entry.details),
    },
  ];

  return (
    <>
      <h2>{t('sections.log')}</h2>
      <AdminTable
        rows={data?.entries ?? []}
        columns={columns}
        label={t('sections.log')}
        loading={loading}
        empty={t('log.empty')}
      />
      {data ? <Pager page={data.page} pageSize={data.page_size} total={data.total} onPage={setPage} /> : null}
    </>
  );
}
