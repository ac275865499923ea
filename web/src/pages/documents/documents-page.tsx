import type { DocumentEntry } from '@scriptorium/common/api/documents';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import {
  childFolder,
  documentUrl,
  folderName,
  folderOf,
  folderTrail,
  folderUrl,
} from '@scriptorium/common/rules/paths';
import type { DocumentTitleMessage } from '@scriptorium/common/ws/messages';
import { FileText, Folder } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLoadedConfiguration, useOptionalUser } from '../../app/configuration/app-context';
import { usePageTitle } from '../../app/page-title';
import { navigate } from '../../app/router/navigation';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { ConfirmDialog } from '../../components/dialog/dialog';
import { MoveDialog } from '../../components/move-dialog/move-dialog';
import { NewFolderDialog } from '../../components/new-folder-dialog/new-folder-dialog';
import { CachedVersionNotice } from '../../components/online/cached-version-notice';
import { useOnline } from '../../components/online/use-online';
import { useOverviewRows } from '../../components/overview/use-overview-rows';
import { useOverviewState } from '../../components/overview/use-overview-state';
import { OverviewMenu, type OverviewMenuItem } from '../../components/overview-menu/overview-menu';
import { showToast } from '../../components/toast/toast-emitter';
import { useLiveMessage } from '../../ws/live-connection';
import { copyDocuments, createDocument, deleteDocuments, fetchDocuments } from './documents-api';
import { ImportDialog } from './import-dialog';
import { knownFolders, moveItems, type OverviewRow, overviewRows, selectedDocuments } from './overview-rows';
import { ShareDialog } from './share-dialog';
import { useTemplateChoices } from './template-choices';
import './documents.css';

export interface DocumentsPageProps {
  /** The folder shown, e.g. "/" or "/thesis/drafts/". */
  path: string;
}

/** How often the overview looks for documents others shared meanwhile, while the tab is visible. */
const REFRESH_MS = 20000;

/** Beyond this many rows in one folder only the rows in view are rendered. */
const VIRTUALIZE_ABOVE = 60;

/** Folders made in this session that hold no document yet; they exist only as paths (DESIGN). */
const sessionFolders = new Set<string>();

type OpenDialog =
  | { kind: 'move'; rows: OverviewRow[] }
  | { kind: 'delete'; rows: OverviewRow[] }
  | { kind: 'share'; documents: DocumentEntry[] }
  | { kind: 'new-folder' }
  | { kind: 'import' }
  | null;

function useDateFormat(language: string): (time: number) => string {
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(language === 'pt-br' ? 'pt-BR' : language, {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    return (time: number) => format.format(new Date(time));
  }, [language]);
}

/** The document overview (spec 2.1): folders and documents of one path, for thousands of documents. */
export function DocumentsPage({ path }: DocumentsPageProps) {
  const { t, i18n } = useTranslation('documents');
  const { t: tImport } = useTranslation('import');
  const folder = path || '/';
  usePageTitle(folder === '/' ? t('title') : `${folderName(folder)} – ${t('title')}`);
  const untitled = t('untitled');
  const formatDate = useDateFormat(i18n.language);

  const online = useOnline();
  const user = useOptionalUser();
  const overview = useOverviewState();
  const { search, setSearch, selected, setSelected, sort, setSort, finishLoad } = overview;
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const closeDialog = () => setDialog(null);
  const [extraFolders, setExtraFolders] = useState<string[]>(() => [...sessionFolders]);

  const {
    rows: documents,
    setRows: setDocuments,
    reload,
  } = useOverviewRows(fetchDocuments, finishLoad, t('loadFailed'));

  useEffect(() => {
    // Shared documents appear without a reload: on return to the tab and every few seconds.
    const refresh = () => {
      if (document.visibilityState === 'visible') void reload();
    };
    const timer = window.setInterval(refresh, REFRESH_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [reload]);

  // Back online: documents created offline go to the server, and the rows are refreshed.
  const wasOnline = useRef(online);
  useEffect(() => {
    if (online && !wasOnline.current) void reload();
    wasOnline.current = online;
  }, [online, reload]);

  // A co-author retitled a document (its title node): the row shows it at once (issue 16).
  useLiveMessage<DocumentTitleMessage>('document_title', ({ id, title }) =>
    setDocuments((rows) => rows?.map((row) => (row.id === id ? { ...row, title } : row)) ?? null),
  );

  // Another folder starts with nothing selected.
  const [shownFolder, setShownFolder] = useState(folder);
  if (shownFolder !== folder) {
    setShownFolder(folder);
    setSelected(new Set());
  }

  const searching = search.trim() !== '';
  const rows = useMemo(
    () => overviewRows(documents ?? [], folder, { untitled, extraFolders, searching }),
    [documents, folder, untitled, extraFolders, searching],
  );
  const selectedRows = useMemo(() => rows.filter((row) => selected.has(row.key)), [rows, selected]);
  const selectedDocs = useMemo(
    () => selectedDocuments(selectedRows, documents ?? []),
    [selectedRows, documents],
  );
  const ownedSelected = selectedDocs.filter((doc) => doc.is_owner);

  const open = (row: OverviewRow) => {
    navigate(row.kind === 'folder' ? folderUrl(row.path) : documentUrl(row.doc.path, row.doc.id));
  };

  // With the Templates plugin on, New document offers the user's templates and the site's.
  const templateChoices = useTemplateChoices(
    useLoadedConfiguration()?.plugins.includes('templates') ?? false,
  );
  const newDocument = async (template?: string) => {
    try {
      const target = folder === '/' ? '' : folder;
      if (!online) {
        // Issue 20: made in the local database now, created on the server when back online.
        if (!user) return;
        const owner = { id: user.id, name: user.name, username: user.username };
        const { createOfflineDocument } = await import('../../offline/offline-documents');
        const made = await createOfflineDocument(owner, user.username, target);
        navigate(documentUrl(made.path, made.id));
        return;
      }
      const created = template
        ? await (await import('../../plugins/templates/templates-api')).createDocumentFromTemplate(
            template,
            target,
          )
        : await createDocument(target);
      navigate(documentUrl(created.path, created.id));
    } catch {
      showToast(t('createFailed'), 'error');
    }
  };

  const newFolder = (name: string) => {
    const target = childFolder(folder, name);
    sessionFolders.add(target);
    setExtraFolders([...sessionFolders]);
    navigate(folderUrl(target));
  };

  const copySelected = async () => {
    try {
      await copyDocuments(selectedDocs.map((doc) => doc.id));
      showToast(t('copied', { count: selectedDocs.length }), 'success');
      setSelected(new Set());
      await reload();
    } catch {
      showToast(t('copyFailed'), 'error');
    }
  };

  const deleteRows = async (targets: OverviewRow[]) => {
    const docs = selectedDocuments(targets, documents ?? []);
    try {
      if (docs.length > 0) await deleteDocuments(docs.map((doc) => doc.id));
      for (const target of targets) {
        if (target.kind === 'folder') sessionFolders.delete(target.path);
      }
      setExtraFolders([...sessionFolders]);
      showToast(t('deleted', { count: docs.length }), 'success');
      setSelected(new Set());
      await reload();
    } catch (error) {
      showToast(t('deleteFailed'), 'error');
      throw error;
    }
  };

  // Offline (issue 20): the rows come from the cache; what needs the server is disabled.
  const none = selectedRows.length === 0 || !online;
  const items: OverviewMenuItem[] = [
    {
      id: 'bulk',
      type: 'select-action',
      shortcut: 'a',
      allSelected: rows.length > 0 && selectedRows.length === rows.length,
      someSelected: !none,
      nothingToSelect: rows.length === 0,
      onSelectAll: (checked) => setSelected(checked ? new Set(rows.map((row) => row.key)) : new Set()),
      actions: [
        {
          label: t('bulk.move'),
          disabled: none,
          onSelect: () => setDialog({ kind: 'move', rows: selectedRows }),
        },
        {
          label: t('bulk.copy'),
          disabled: none || selectedDocs.length === 0,
          onSelect: () => void copySelected(),
        },
        {
          label: t('bulk.delete'),
          disabled: none,
          onSelect: () => setDialog({ kind: 'delete', rows: selectedRows }),
        },
        {
          label: t('bulk.share'),
          disabled: none || ownedSelected.length === 0,
          onSelect: () => setDialog({ kind: 'share', documents: ownedSelected }),
        },
      ],
    },
    // Offline, New document makes a standard article in the local database (no template list).
    templateChoices && online
      ? {
          id: 'new-document',
          type: 'dropdown',
          shortcut: 'n',
          title: t('newDocument'),
          options: templateChoices.map((choice) => ({
            id: choice.id,
            label: choice.label,
            onSelect: () => void newDocument(choice.id),
          })),
        }
      : {
          id: 'new-document',
          type: 'text',
          shortcut: 'n',
          title: t('newDocument'),
          onSelect: () => void newDocument(),
        },
    {
      id: 'import-document',
      type: 'text',
      shortcut: 'i',
      title: tImport('menu'),
      disabled: !online,
      onSelect: () => setDialog({ kind: 'import' }),
    },
    {
      id: 'new-folder',
      type: 'text',
      shortcut: 'f',
      title: t('newFolder'),
      onSelect: () => setDialog({ kind: 'new-folder' }),
    },
    { id: 'search', type: 'search', shortcut: 's', title: t('search'), value: search, onChange: setSearch },
  ];

  const columns: Column<OverviewRow>[] = [
    {
      id: 'title',
      header: t('columns.title'),
      className: 'documents-title',
      // Folders stay together ahead of documents in ascending order.
      sortValue: (row) => `${row.kind === 'folder' ? 'a' : 'b'} ${row.name}`,
      cell: (row) =>
        row.kind === 'folder' ? (
          <a href={folderUrl(row.path)} className="documents-folder-link">
            <Folder aria-hidden="true" className="documents-icon" />
            <span className="documents-name clamp-2" title={row.name}>
              {row.name}
            </span>
            <span className="documents-count">{t('folderCount', { count: row.count })}</span>
          </a>
        ) : (
          <>
            <a href={documentUrl(row.doc.path, row.doc.id)} className="documents-document-link">
              <FileText aria-hidden="true" className="documents-icon" />
              <span className="documents-name clamp-2" title={row.name}>
                {row.name}
              </span>
            </a>
            {searching ? <span className="documents-location">{folderOf(row.doc.path)}</span> : null}
          </>
        ),
    },
    {
      id: 'owner',
      header: t('columns.owner'),
      className: 'documents-col-minor',
      sortValue: (row) => (row.kind === 'document' ? row.doc.owner.name : undefined),
      cell: (row) => (row.kind === 'document' ? (row.doc.is_owner ? t('me') : row.doc.owner.name) : null),
    },
    {
      id: 'rights',
      header: t('columns.rights'),
      className: 'documents-col-minor',
      sortValue: (row) =>
        row.kind === 'document' ? (row.doc.is_owner ? '' : t(`rights.${row.doc.rights}`)) : undefined,
      cell: (row) =>
        row.kind === 'document'
          ? row.doc.is_owner
            ? t('rights.owner')
            : t(`rights.${row.doc.rights}`)
          : null,
    },
    {
      id: 'created',
      header: t('columns.created'),
      className: 'documents-date documents-col-minor',
      sortValue: (row) => (row.kind === 'document' ? row.doc.created : undefined),
      cell: (row) => (row.kind === 'document' ? formatDate(row.doc.created) : null),
    },
    {
      id: 'updated',
      header: t('columns.updated'),
      className: 'documents-date',
      sortValue: (row) => (row.kind === 'document' ? row.doc.updated : undefined),
      cell: (row) => (row.kind === 'document' ? formatDate(row.doc.updated) : null),
    },
    {
      id: 'actions',
      header: t('columns.actions'),
      className: 'documents-actions',
      cell: (row) =>
        row.kind === 'document' && row.doc.is_owner ? (
          <button
            type="button"
            className="button documents-share"
            aria-label={t('shareNamed', { name: row.name })}
            onClick={() => setDialog({ kind: 'share', documents: [row.doc] })}
          >
            {t('share.button')}
          </button>
        ) : null,
    },
  ];

  const emptyMessage =
    documents !== null && documents.length === 0 ? t('empty.noDocuments') : t('empty.folder');

  const deleteTargets = dialog?.kind === 'delete' ? selectedDocuments(dialog.rows, documents ?? []) : [];
  const leaving = deleteTargets.filter((doc) => !doc.is_owner).length;

  return (
    <section className="page documents-page" aria-labelledby="page-heading">
      <h1 id="page-heading" className="documents-heading">
        {t('title')}
      </h1>
      <nav aria-label={t('breadcrumbs')} className="documents-breadcrumbs">
        <ol className="row-list">
          {folderTrail(folder).map((step, index, trail) => (
            <li key={step}>
              {index === trail.length - 1 ? (
                <span aria-current="page">{step === '/' ? t('allDocuments') : folderName(step)}</span>
              ) : (
                <a href={folderUrl(step)}>{step === '/' ? t('allDocuments') : folderName(step)}</a>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <CachedVersionNotice />
      <OverviewMenu items={items} />
      {overview.stale && documents === null ? <p role="alert">{t('loadFailed')}</p> : null}
      {documents !== null || overview.loading ? (
        <DataTable
          loading={documents === null}
          loadingMessage={t('loading')}
          emptyIcon={FileText}
          emptyAction={
            documents !== null && documents.length === 0
              ? { label: t('empty.action'), disabled: !online, onAction: () => void newDocument() }
              : undefined
          }
          rows={rows}
          columns={columns}
          getRowId={(row) => row.key}
          label={t('tableLabel')}
          selectable
          selected={selected}
          onSelectedChange={setSelected}
          rowLabel={(row) => row.name}
          onActivate={open}
          onDelete={(row) => setDialog({ kind: 'delete', rows: [row] })}
          emptyMessage={emptyMessage}
          noMatchMessage={t('empty.noMatch')}
          paged={false}
          // Folders of thousands scroll smoothly: only the rows in view are drawn beyond this.
          virtualizeAbove={VIRTUALIZE_ABOVE}
          sort={sort}
          onSortChange={setSort}
          search={search}
          searchText={(row) =>
            row.kind === 'folder'
              ? row.name
              : `${row.name} ${row.doc.title} ${row.doc.owner.name} ${row.doc.path}`
          }
          className="documents-table"
        />
      ) : null}

      {dialog?.kind === 'import' ? (
        <ImportDialog folder={folder === '/' ? '' : folder} onClose={closeDialog} />
      ) : null}
      {dialog?.kind === 'new-folder' ? <NewFolderDialog onCreate={newFolder} onClose={closeDialog} /> : null}
      {dialog?.kind === 'move' ? (
        <MoveDialog
          files={moveItems(dialog.rows, documents ?? [])}
          folders={knownFolders(documents ?? [], extraFolders)}
          endpoint={documentsApi.move}
          errorMessage={t('moveFailed')}
          successMessage={t('moved')}
          untitled={untitled}
          initialFolder={folder}
          onClose={closeDialog}
          onMoved={() => {
            setSelected(new Set());
            void reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title={t('deleteDialog.title')}
          message={`${t('deleteDialog.message', { count: deleteTargets.length })}${leaving > 0 ? ` ${t('deleteDialog.leave', { count: leaving })}` : ''}`}
          confirmLabel={t('deleteDialog.confirm')}
          onConfirm={() => deleteRows(dialog.rows)}
          onClose={closeDialog}
        />
      ) : null}
      {dialog?.kind === 'share' ? (
        <ShareDialog documents={dialog.documents} onClose={closeDialog} onSaved={() => void reload()} />
      ) : null}
    </section>
  );
}
