import { type AdminFeedbackItem, FEEDBACK_FILTERS } from '@scriptorium/common/api/admin';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { showToast } from '../../components/toast/toast';
import { errorMessageOf } from '../account/account-api';
import { AdminFilter, useFilteredPages } from './admin-form';
import { useAdminFormat } from './admin-format';
import { Pager } from './pager';
import { useAdminQuery } from './use-admin-query';

type Filter = (typeof FEEDBACK_FILTERS)[number];

/** /admin/feedback/: reports from the feedback tab, marked done once handled. */
export function FeedbackSection() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const { filter, chooseFilter, page, setPage } = useFilteredPages<Filter>('open');
  const load = useCallback(() => call(adminApi.feedback, { filter, page }), [filter, page]);
  const { data, loading, reload } = useAdminQuery(load, t('feedback.loadError'));

  const mark = async (item: AdminFeedbackItem, done: boolean) => {
    try {
      await call(adminApi.setFeedbackDone, { id: item.id, done });
      showToast(done ? t('feedback.markedDone') : t('feedback.reopened'), 'success');
      void reload();
    } catch (error) {
      showToast(errorMessageOf(error) ?? t('failed'), 'error');
    }
  };

  return (
    <>
      <h2>{t('sections.feedback')}</h2>
      <div className="admin-toolbar">
        <AdminFilter list="feedback" filters={FEEDBACK_FILTERS} value={filter} onChange={chooseFilter} />
      </div>
      {data && data.items.length > 0 ? (
        <ol className="admin-feedback-list" aria-busy={loading}>
          {data.items.map((item) => (
            <li
              key={item.id}
              className={item.done === null ? 'admin-feedback' : 'admin-feedback admin-feedback-done'}
            >
              <p className="admin-feedback-meta">
                {t('feedback.from', {
                  who: item.username
                    ? `${item.username}${item.email ? ` <${item.email}>` : ''}`
                    : t('feedback.visitor'),
                  date: format.date(item.created),
                })}
                {item.done !== null ? (
                  <span className="admin-badge">
                    {t('feedback.doneOn', { date: format.date(item.done) })}
                  </span>
                ) : null}
              </p>
              <p className="admin-feedback-message">{item.message}</p>
              <button type="button" className="button" onClick={() => void mark(item, item.done === null)}>
                {item.done === null ? t('feedback.markDone') : t('feedback.reopen')}
              </button>
            </li>
          ))}
        </ol>
      ) : (
        <p className="page-message">{loading ? t('loading') : t(`feedback.empty.${filter}`)}</p>
      )}
      {data ? <Pager page={data.page} pageSize={data.page_size} total={data.total} onPage={setPage} /> : null}
    </>
  );
}
