import type { ListStamp } from '@scriptorium/common/api/bibliography';
import {
  entryAuthors,
  entrySearchText,
  entryTitle,
  entryYear,
} from '@scriptorium/common/bibliography/display';
import { exportBiblatex, exportBibtex, exportCslJson } from '@scriptorium/common/bibliography/export';
import type { BibCategory, BibEntry, EntryData } from '@scriptorium/common/bibliography/types';
import { BookOpen } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../app/configuration/app-context';
import { usePageTitle } from '../../app/page-title';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { ConfirmDeleteDialog } from '../../components/dialog/dialog';
import { CachedVersionNotice } from '../../components/online/cached-version-notice';
import { ALL_ROWS, useOverviewState } from '../../components/overview/use-overview-state';
import {
  categoryFilterItem,
  editCategoriesItem,
  visibleRowsBulkItem,
} from '../../components/overview-menu/category-overview-items';
import { OverviewMenu, type OverviewMenuItem } from '../../components/overview-menu/overview-menu';
import { showToast } from '../../components/toast/toast';
import {
  deleteEntries,
  type Library,
  loadLibrary,
  rememberCategories,
  rememberWrite,
  saveEntries,
} from './bibliography-api';
import { CategoriesDialog } from './categories-dialog';
import { downloadText } from './download';
import { EntryDialog } from './entry-dialog';
import { ImportDialog } from './import-dialog';
import { PreviewPanel } from './preview-panel';
import { SourcesDialog } from './sources-dialog';
import { useBibLabels } from './use-bib-labels';
import './bibliography.css';
import { TrashIcon } from '../../components/icons/trash-icon';
import { Page } from '../../components/page/page';

type DialogState =
  | { kind: 'none' }
  | { kind: 'entry'; entry: BibEntry | null }
  | { kind: 'categories' }
  | { kind: 'import' }
  | { kind: 'sources' }
  | { kind: 'delete'; ids: number[] };

// Room for a title on two lines (the table wraps titles instead of cutting them).
const ROW_HEIGHT = 64;

/** Precomputed texts: sorting and searching 10,000 rows must not walk rich text every time. */
interface Row {
  entry: BibEntry;
  title: string;
  authors: string;
  year: string;
  search: string;
}

function toRow(entry: BibEntry): Row {
  return {
    entry,
    title: entryTitle(entry),
    authors: entryAuthors(entry),
    year: entryYear(entry),
    search: entrySearchText(entry),
  };
}

/** The bibliography overview at /bibliography/ (spec 2.1; layout after Zotero's). */
export function BibliographyPage() {
  const { t } = useTranslation('bibliography');
  usePageTitle(t('title'));
  const labels = useBibLabels();
  const user = useCurrentUser();
  const userId = user?.id ?? -1;
  const overview = useOverviewState();
  const { online, stale, search, setSearch, sort, setSort, selected, setSelected, finishLoad } = overview;
  const loaded = !overview.loading;

  const [library, setLibrary] = useState<Library>({ entries: [], categories: [] });
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const closeDialog = () => setDialog({ kind: 'none' });
  const libraryRef = useRef(library);
  libraryRef.current = library;

  useEffect(() => {
    let cancelled = false;
    const show = (next: Library) => {
      if (cancelled) return;
      setLibrary(next);
      finishLoad(true);
    };
    loadLibrary(userId, show)
      .then(show)
      .catch(() => {
        if (cancelled) return;
        // The server could not be asked: the list on screen is the cached one.
        finishLoad(false);
        showToast(navigator.onLine ? t('loadError') : t('offline'), 'error');
      });
    return () => {
      cancelled = true;
    };
  }, [userId, t, finishLoad]);

  /** Applies a write to the screen and the cache. */
  const commit = useCallback(
    (next: Library, stamp: ListStamp) => {
      setLibrary(next);
      void rememberWrite(userId, stamp, next);
    },
    [userId],
  );

  const rowsAll = useMemo(() => library.entries.map(toRow), [library.entries]);
  const activeFilter = overview.activeFilter((id) => library.categories.some((c) => String(c.id) === id));
  const rows = useMemo(
    () =>
      activeFilter === ALL_ROWS
        ? rowsAll
        : rowsAll.filter((row) => row.entry.cats.includes(Number(activeFilter))),
    [rowsAll, activeFilter],
  );
  const categoryNames = useMemo(
    () => new Map(library.categories.map((c) => [c.id, c.category_title])),
    [library.categories],
  );

  const selectedEntries = useMemo(
    () => library.entries.filter((entry) => selected.has(String(entry.id))),
    [library.entries, selected],
  );

  const offlineGuard = (): boolean => {
    if (navigator.onLine) return true;
    showToast(t('offline'), 'info');
    return false;
  };

  const saveEntry = async (data: EntryData, id: number | null) => {
    if (!offlineGuard()) throw new Error('offline');
    try {
      const answer = await saveEntries(new Map([[id ?? -1, data]]), id === null);
      const [, newId] = answer.id_translations[0];
      const key = answer.entry_keys[0]?.[1] ?? data.entry_key;
      const saved: BibEntry = { ...data, id: newId, entry_key: key };
      const current = libraryRef.current;
      const entries =
        id === null ? [...current.entries, saved] : current.entries.map((e) => (e.id === id ? saved : e));
      commit({ ...current, entries }, answer);
      showToast(t('updated'), 'success');
    } catch (error) {
      showToast(navigator.onLine ? t('notUpdated') : t('offline'), navigator.onLine ? 'error' : 'info');
      throw error;
    }
  };

  const askDelete = (ids: number[]) => {
    if (!offlineGuard()) return;
    if (ids.length > 0) setDialog({ kind: 'delete', ids });
  };

  const confirmDelete = async (ids: number[]) => {
    if (!offlineGuard()) return;
    try {
      const stamp = await deleteEntries(ids);
      const gone = new Set(ids);
      const current = libraryRef.current;
      commit({ ...current, entries: current.entries.filter((e) => !gone.has(e.id)) }, stamp);
      setSelected((sel) => new Set([...sel].filter((id) => !gone.has(Number(id)))));
      showToast(t('deleted'), 'success');
    } catch (error) {
      showToast(navigator.onLine ? t('notDeleted') : t('offline'), navigator.onLine ? 'error' : 'info');
      throw error;
    }
  };

  const onCategoriesSaved = (categories: BibCategory[], removed: number[], stamp: ListStamp | null) => {
    const gone = new Set(removed);
    const current = libraryRef.current;
    const entries =
      gone.size === 0
        ? current.entries
        : current.entries.map((e) =>
            e.cats.some((c) => gone.has(c)) ? { ...e, cats: e.cats.filter((c) => !gone.has(c)) } : e,
          );
    const next = { entries, categories };
    setLibrary(next);
    if (stamp) void rememberWrite(userId, stamp, next);
    else void rememberCategories(categories);
  };

  const exportEntries = (entries: BibEntry[], format: 'bibtex' | 'biblatex' | 'csl') => {
    if (entries.length === 0) return;
    if (format === 'csl')
      downloadText(exportCslJson(entries), 'bibliography.json', 'application/vnd.citationstyles.csl+json');
    else
      downloadText(
        format === 'bibtex' ? exportBibtex(entries) : exportBiblatex(entries),
        'bibliography.bib',
        'application/x-bibtex',
      );
  };

  const visibleIds = rows.map((row) => String(row.entry.id));
  const someSelected = selected.size > 0;

  const columns: Column<Row>[] = [
    {
      id: 'title',
      header: t('columnTitle'),
      className: 'bib-title-cell',
      sortValue: (row) => row.title.toLocaleLowerCase(),
      cell: (row) => (
        <button
          type="button"
          className="bib-title link-button"
          aria-label={t('editEntry', { title: row.title || row.entry.entry_key })}
          onClick={() => setDialog({ kind: 'entry', entry: row.entry })}
        >
          {row.title || <em>{row.entry.entry_key}</em>}
        </button>
      ),
    },
    {
      id: 'authors',
      header: t('columnAuthors'),
      className: 'bib-col-authors',
      sortValue: (row) => row.authors.toLocaleLowerCase(),
      cell: (row) => row.authors,
    },
    {
      id: 'year',
      header: t('columnYear'),
      className: 'bib-col-year',
      sortValue: (row) => row.year,
      cell: (row) => row.year,
    },
    {
      id: 'type',
      header: t('columnType'),
      className: 'bib-col-type',
      sortValue: (row) => row.entry.bib_type,
      cell: (row) => (
        <span className="clamp-2 bib-wrap">
          {t(`type.${row.entry.bib_type}`, { defaultValue: labels.type(row.entry.bib_type) })}
        </span>
      ),
    },
    {
      id: 'cats',
      header: t('columnCategories'),
      className: 'bib-col-cats',
      cell: (row) => {
        const names = row.entry.cats
          .map((c) => categoryNames.get(c))
          .filter(Boolean)
          .join(', ');
        // Empty: no value (a phone's card leaves out the line).
        return names ? <span className="clamp-2 bib-wrap">{names}</span> : null;
      },
    },
    {
      id: 'delete',
      header: '',
      headerLabel: t('columnActions'),
      className: 'bib-actions',
      cell: (row) => (
        <button
          type="button"
          className="icon-button"
          aria-label={t('deleteEntry', { title: row.title || row.entry.entry_key })}
          aria-disabled={!online || undefined}
          onClick={() => askDelete([row.entry.id])}
        >
          <TrashIcon />
        </button>
      ),
    },
  ];

  const selectedIds = [...selected].map(Number);
  const menuItems: OverviewMenuItem[] = [
    visibleRowsBulkItem(selected, setSelected, visibleIds, someSelected, [
      {
        label: t('deleteSelected'),
        disabled: selected.size === 0 || !online,
        onSelect: () => askDelete(selectedIds),
      },
      {
        label: t('exportSelectedBibtex'),
        disabled: selected.size === 0,
        onSelect: () => exportEntries(selectedEntries, 'bibtex'),
      },
      {
        label: t('exportSelectedBiblatex'),
        disabled: selected.size === 0,
        onSelect: () => exportEntries(selectedEntries, 'biblatex'),
      },
      {
        label: t('exportSelectedCsl'),
        disabled: selected.size === 0,
        onSelect: () => exportEntries(selectedEntries, 'csl'),
      },
    ]),
    categoryFilterItem(
      { title: t('categoryFilter'), all: t('allCategories') },
      library.categories,
      activeFilter,
      overview.setFilter,
    ),
    editCategoriesItem(t('editCategories'), online, () => setDialog({ kind: 'categories' })),
    {
      type: 'text',
      id: 'new',
      title: t('newSource'),
      shortcut: 'n',
      disabled: !online,
      onSelect: () => setDialog({ kind: 'entry', entry: null }),
    },
    {
      type: 'text',
      id: 'import',
      title: t('import'),
      shortcut: 'u',
      disabled: !online,
      onSelect: () => setDialog({ kind: 'import' }),
    },
    {
      type: 'text',
      id: 'sources',
      title: t('sources.menu'),
      shortcut: 'l',
      disabled: !online,
      onSelect: () => setDialog({ kind: 'sources' }),
    },
    {
      type: 'dropdown',
      id: 'export',
      title: t('export'),
      shortcut: 'x',
      options: [
        {
          id: 'bibtex',
          label: t('exportAllBibtex'),
          onSelect: () => exportEntries(library.entries, 'bibtex'),
        },
        {
          id: 'biblatex',
          label: t('exportAllBiblatex'),
          onSelect: () => exportEntries(library.entries, 'biblatex'),
        },
        { id: 'csl', label: t('exportAllCsl'), onSelect: () => exportEntries(library.entries, 'csl') },
      ],
    },
    { type: 'search', id: 'search', title: t('search'), shortcut: 's', value: search, onChange: setSearch },
  ];

  return (
    <Page heading={t('title')} className="bibliography-page">
      <OverviewMenu items={menuItems} />
      <CachedVersionNotice stale={stale} />
      <div className="split-layout bib-layout">
        <div className="bib-table-area">
          <DataTable
            loading={!loaded}
            loadingMessage={t('loading')}
            emptyIcon={BookOpen}
            emptyAction={{
              label: t('emptyAction'),
              disabled: !online,
              onAction: () => setDialog({ kind: 'entry', entry: null }),
            }}
            rows={rows}
            columns={columns}
            getRowId={(row) => String(row.entry.id)}
            label={t('title')}
            selectable
            selected={selected}
            onSelectedChange={setSelected}
            rowLabel={(row) => row.title || row.entry.entry_key}
            onActivate={(row) => setDialog({ kind: 'entry', entry: row.entry })}
            onDelete={(row) => askDelete([row.entry.id])}
            emptyMessage={library.entries.length === 0 ? t('noEntries') : t('noEntriesFound')}
            noMatchMessage={t('noEntriesFound')}
            paged={false}
            rowHeight={ROW_HEIGHT}
            sort={sort}
            onSortChange={setSort}
            search={search}
            searchText={(row) => row.search}
            className="bib-table"
          />
        </div>
        <PreviewPanel entries={selectedEntries} />
      </div>
      {dialog.kind === 'entry' ? (
        <EntryDialog
          entry={dialog.entry}
          categories={library.categories}
          onClose={closeDialog}
          onSave={saveEntry}
        />
      ) : null}
      {dialog.kind === 'categories' ? (
        <CategoriesDialog categories={library.categories} onClose={closeDialog} onSaved={onCategoriesSaved} />
      ) : null}
      {dialog.kind === 'import' ? (
        <ImportDialog
          onClose={closeDialog}
          onImported={(saved, stamp) => {
            const current = libraryRef.current;
            commit({ ...current, entries: [...current.entries, ...saved] }, stamp);
          }}
        />
      ) : null}
      {dialog.kind === 'sources' ? (
        <SourcesDialog
          onClose={closeDialog}
          onSynced={() => {
            loadLibrary(userId)
              .then(setLibrary)
              .catch(() => showToast(t('loadError'), 'error'));
          }}
        />
      ) : null}
      {dialog.kind === 'delete' ? (
        <ConfirmDeleteDialog
          namespace="bibliography"
          ids={dialog.ids}
          onConfirm={confirmDelete}
          onClose={closeDialog}
        />
      ) : null}
    </Page>
  );
}
