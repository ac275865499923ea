import type { Contact, ContactReference } from '@scriptorium/common/api/contacts';
import { Users } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppContext } from '../../app/configuration/app-context';
import { usePageTitle } from '../../app/page-title';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { ConfirmDialog } from '../../components/dialog/dialog';
import { CachedVersionNotice } from '../../components/online/cached-version-notice';
import { useOnline } from '../../components/online/use-online';
import { useOverviewState } from '../../components/overview/use-overview-state';
import { OverviewMenu, type OverviewMenuItem } from '../../components/overview-menu/overview-menu';
import { showToast } from '../../components/toast/toast';
import { acceptInvites, contactRowId, declineInvites, deleteContacts, fetchContacts } from './contacts-api';
import { InviteDialog } from './invite-dialog';
import { RespondMenu } from './respond-menu';
import './contacts.css';
import { TrashIcon } from '../../components/icons/trash-icon';
import { Page } from '../../components/page/page';

type DialogState = { kind: 'none' } | { kind: 'invite' } | { kind: 'delete'; rows: Contact[] };

/** The contacts page at /user/contacts/ (spec 2.4). */
export function ContactsPage() {
  const { t } = useTranslation('contacts');
  usePageTitle(t('title'));
  const { user, reloadConfiguration } = useAppContext();

  const [contacts, setContacts] = useState<Contact[]>([]);
  const online = useOnline();
  const overview = useOverviewState();
  const { search, setSearch, sort, setSort, selected, setSelected, keepSelected, finishLoad } = overview;
  const loaded = !overview.loading;
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const closeDialog = () => setDialog({ kind: 'none' });

  useEffect(() => {
    let active = true;
    fetchContacts().then(
      (list) => {
        if (!active) return;
        setContacts(list);
        finishLoad(true);
      },
      () => {
        if (!active) return;
        showToast(t('loadError'), 'error');
        finishLoad(false);
      },
    );
    return () => {
      active = false;
    };
  }, [t, finishLoad]);

  // The notice on the other pages follows configuration.waiting_invites: keep it in step with the
  // received invites this page shows (answered here, or arrived since the configuration loaded).
  const waiting = contacts.some((contact) => contact.type === 'to_userinvite');
  useEffect(() => {
    if (loaded && user && user.waiting_invites !== waiting) void reloadConfiguration();
  }, [loaded, user, waiting, reloadConfiguration]);

  const remove = useCallback(
    (rows: ContactReference[]) => {
      const gone = new Set(rows.map(contactRowId));
      setContacts((current) => current.filter((contact) => !gone.has(contactRowId(contact))));
      keepSelected((id) => !gone.has(id));
    },
    [keepSelected],
  );

  const accept = async (invite: Contact) => {
    try {
      const added = await acceptInvites([invite.id]);
      remove([invite]);
      setContacts((current) => [
        ...current.filter((contact) => !added.some((a) => contactRowId(a) === contactRowId(contact))),
        ...added,
      ]);
      showToast(t('accepted', { name: invite.name }), 'success');
    } catch {
      showToast(t('answerError'), 'error');
    }
  };

  const decline = async (invite: Contact) => {
    try {
      await declineInvites([invite.id]);
      remove([invite]);
      showToast(t('declined', { name: invite.name }), 'info');
    } catch {
      showToast(t('answerError'), 'error');
    }
  };

  const confirmDelete = async (rows: Contact[]) => {
    try {
      await deleteContacts(rows);
    } catch (error) {
      showToast(t('deleteError'), 'error');
      throw error;
    }
    remove(rows);
    showToast(t('deleted', { count: rows.length }), 'success');
  };

  const byId = useMemo(
    () => new Map(contacts.map((contact) => [contactRowId(contact), contact])),
    [contacts],
  );
  const selectedRows = [...selected].flatMap((id) => byId.get(id) ?? []);
  const allSelected = contacts.length > 0 && selectedRows.length === contacts.length;

  const toggle = (contact: Contact) => {
    const id = contactRowId(contact);
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };

  const columns: Column<Contact>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      sortValue: (contact) => contact.name.toLowerCase(),
      cell: (contact) => (
        <span className="contacts-name">
          {contact.avatar ? <img className="contacts-avatar" src={contact.avatar} alt="" /> : null}
          {contact.name}
        </span>
      ),
    },
    {
      id: 'type',
      header: t('columns.type'),
      className: 'contacts-col-type',
      sortValue: (contact) => t(`types.${contact.type}`),
      cell: (contact) => t(`types.${contact.type}`),
    },
    {
      id: 'email',
      header: t('columns.email'),
      className: 'contacts-col-email',
      sortValue: (contact) => contact.email.toLowerCase(),
      cell: (contact) => contact.email,
    },
    {
      id: 'actions',
      header: '',
      headerLabel: t('columns.actions'),
      className: 'contacts-actions',
      cell: (contact) => (
        <>
          {contact.type === 'to_userinvite' ? (
            <RespondMenu
              name={contact.name}
              onAccept={() => void accept(contact)}
              onDecline={() => void decline(contact)}
            />
          ) : null}
          <button
            type="button"
            className="icon-button"
            aria-label={t('deleteOne', { name: contact.name })}
            title={t('deleteOne', { name: contact.name })}
            onClick={() => setDialog({ kind: 'delete', rows: [contact] })}
          >
            <TrashIcon />
          </button>
        </>
      ),
    },
  ];

  const menuItems: OverviewMenuItem[] = [
    {
      type: 'select-action',
      id: 'bulk',
      allSelected,
      someSelected: selectedRows.length > 0 && !allSelected,
      nothingToSelect: contacts.length === 0,
      onSelectAll: (checked: boolean) =>
        setSelected(checked ? new Set(contacts.map(contactRowId)) : new Set()),
      actions: [
        {
          label: t('menu.deleteSelected'),
          disabled: selectedRows.length === 0 || !online,
          onSelect: () => setDialog({ kind: 'delete', rows: selectedRows }),
        },
      ],
    },
    {
      type: 'text',
      id: 'invite',
      title: t('menu.invite'),
      shortcut: 'i',
      // Offline (spec 4): contacts come from the cache; inviting needs the server.
      disabled: !online,
      onSelect: () => setDialog({ kind: 'invite' }),
    },
    { type: 'search', id: 'search', title: t('search'), shortcut: 's', value: search, onChange: setSearch },
  ];

  return (
    <Page heading={t('title')} className="contacts-page">
      <CachedVersionNotice />
      <OverviewMenu items={menuItems} />
      <DataTable
        loading={!loaded}
        loadingMessage={t('loading')}
        emptyIcon={Users}
        emptyAction={{
          label: t('emptyAction'),
          disabled: !online,
          onAction: () => setDialog({ kind: 'invite' }),
        }}
        rows={contacts}
        columns={columns}
        getRowId={(contact: Contact) => contactRowId(contact)}
        label={t('title')}
        selectable
        selected={selected}
        onSelectedChange={setSelected}
        rowLabel={(contact) => contact.name}
        // Spec 2.4: Enter and Space select a row (the table toggles on Space itself).
        onActivate={toggle}
        onDelete={(contact) => setDialog({ kind: 'delete', rows: [contact] })}
        emptyMessage={t('empty')}
        noMatchMessage={t('noResults')}
        paged={false}
        sort={sort}
        onSortChange={setSort}
        search={search}
        searchText={(contact) => `${contact.name} ${contact.email} ${t(`types.${contact.type}`)}`}
        className="contacts-table"
      />
      {dialog.kind === 'invite' ? (
        <InviteDialog
          onClose={closeDialog}
          onAdded={(added) =>
            setContacts((current) => [
              ...current.filter((contact) => !added.some((a) => contactRowId(a) === contactRowId(contact))),
              ...added,
            ])
          }
        />
      ) : null}
      {dialog.kind === 'delete' ? (
        <ConfirmDialog
          title={t('deleteTitle')}
          message={t('deleteQuestion', { count: dialog.rows.length })}
          confirmLabel={t('deleteConfirm')}
          onConfirm={() => confirmDelete(dialog.rows)}
          onClose={closeDialog}
        />
      ) : null}
    </Page>
  );
}
