import type { AdminUser, UserFilter } from '@scriptorium/common/api/admin';
import { USER_FILTERS } from '@scriptorium/common/api/admin';
import { adminApi } from '@scriptorium/common/api/endpoints/admin';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import type { Column } from '../../components/data-table/data-table';
import { LabelledInput } from '../../components/form/labelled-input';
import { AdminFilter, useFilteredPages } from './admin-form';
import { useAdminFormat } from './admin-format';
import { AdminTable } from './admin-table';
import { Pager } from './pager';
import { useAdminQuery } from './use-admin-query';
import { CreateUserDialog, DeleteUserDialog, UserDialog } from './user-dialogs';

type DialogState =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'user'; user: AdminUser }
  | { kind: 'delete'; user: AdminUser };

/** How long typing pauses before the search goes to the server. */
const SEARCH_DELAY_MS = 250;

/** /admin/users/: every account, searched and paged on the server. */
export function UsersSection() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const { filter, chooseFilter, page, setPage } = useFilteredPages<UserFilter>('all');
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const closeDialog = () => setDialog({ kind: 'none' });

  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(typed.trim());
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, setPage]);

  const load = useCallback(() => call(adminApi.users, { q, filter, page }), [q, filter, page]);
  const { data, loading, reload } = useAdminQuery(load, t('users.loadError'));

  const changed = (user: AdminUser | null) => {
    void reload();
    setDialog(user ? { kind: 'user', user } : { kind: 'none' });
  };

  const columns: Column<AdminUser>[] = [
    {
      id: 'username',
      header: t('users.columns.username'),
      cell: (user) => (
        <button type="button" className="admin-link-button" onClick={() => setDialog({ kind: 'user', user })}>
          {user.username}
        </button>
      ),
    },
    {
      id: 'name',
      header: t('users.columns.name'),
      className: 'admin-col-minor',
      cell: (user) => `${user.first_name} ${user.last_name}`.trim(),
    },
    {
      id: 'emails',
      header: t('users.columns.emails'),
      className: 'admin-col-emails',
      cell: (user) => (
        <ul className="plain-list">
          {user.emails.map((email) => (
            <li key={email.address}>
              {email.address}
              {email.verified ? null : <span className="admin-badge">{t('users.unconfirmed')}</span>}
            </li>
          ))}
        </ul>
      ),
    },
    {
      id: 'status',
      header: t('users.columns.status'),
      cell: (user) => (
        <span className="admin-badges">
          {user.is_staff ? <span className="admin-badge admin-badge-accent">{t('users.staff')}</span> : null}
          {user.is_active ? null : (
            <span className="admin-badge admin-badge-danger">{t('users.inactive')}</span>
          )}
          {user.locked ? <span className="admin-badge admin-badge-danger">{t('users.locked')}</span> : null}
        </span>
      ),
    },
    {
      id: 'login',
      header: t('users.columns.lastLogin'),
      className: 'admin-col-minor',
      cell: (user) => format.date(user.last_login),
    },
    {
      id: 'documents',
      header: t('users.columns.documents'),
      className: 'admin-col-minor admin-col-number',
      cell: (user) => format.number(user.documents),
    },
    {
      id: 'storage',
      header: t('users.columns.storage'),
      className: 'admin-col-minor admin-col-number',
      cell: (user) => format.bytes(user.storage),
    },
  ];

  return (
    <>
      <h2>{t('sections.users')}</h2>
      <div className="admin-toolbar">
        <LabelledInput
          className="admin-toolbar-field"
          label={t('users.search')}
          type="search"
          value={typed}
          placeholder={t('users.searchPlaceholder')}
          onChange={setTyped}
        />
        <AdminFilter list="users" filters={USER_FILTERS} value={filter} onChange={chooseFilter} />
        <button type="button" className="button button-primary" onClick={() => setDialog({ kind: 'create' })}>
          {t('users.create')}
        </button>
      </div>
      <div aria-busy={loading}>
        <AdminTable
          rows={data?.users ?? []}
          columns={columns}
          label={t('users.tableLabel')}
          loading={loading}
          empty={q || filter !== 'all' ? t('users.noMatch') : t('users.empty')}
          onActivate={(user) => setDialog({ kind: 'user', user })}
        />
      </div>
      {data ? (
        <Pager
          page={data.page}
          pageSize={data.page_size}
          total={data.total}
          capped={data.capped}
          onPage={setPage}
        />
      ) : null}

      {dialog.kind === 'create' ? (
        <CreateUserDialog onClose={closeDialog} onCreated={(user) => changed(user)} />
      ) : null}
      {dialog.kind === 'user' ? (
        <UserDialog
          user={dialog.user}
          onClose={closeDialog}
          onChanged={(user) => changed(user)}
          onDelete={() => setDialog({ kind: 'delete', user: dialog.user })}
        />
      ) : null}
      {dialog.kind === 'delete' ? (
        <DeleteUserDialog
          user={dialog.user}
          onClose={() => setDialog({ kind: 'user', user: dialog.user })}
          onDeleted={() => changed(null)}
        />
      ) : null}
    </>
  );
}
