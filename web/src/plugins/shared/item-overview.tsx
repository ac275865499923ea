import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/router/navigation';
import type { BulkAction } from '../../components/bulk-menu/bulk-menu';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { CachedVersionNotice } from '../../components/online/cached-version-notice';
import type { OverviewState } from '../../components/overview/use-overview-state';
import { OverviewMenu, type OverviewMenuItem } from '../../components/overview-menu/overview-menu';
import { Page } from '../../components/page/page';
import { showToast } from '../../components/toast/toast-emitter';
import './plugin-pages.css';

/** What the plugins' overviews list: a titled row with the spec's "added" and "last changed". */
export interface OverviewItem {
  id: number;
  title: string;
  added: number;
  updated: number;
}

export function useDateTimeFormat(): (time: number) => string {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language === 'pt-br' ? 'pt-BR' : i18n.language, {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    // A row of before the "added" column has 0: shown as unknown rather than 1970.
    return (time: number) => (time > 0 ? format.format(new Date(time)) : '–');
  }, [i18n.language]);
}

/**
 * The overview's delete of confirmed rows: a toast of how many went, the selection cleared and the
 * list reloaded; a failure is toasted and rethrown, so that the confirm dialog stays open.
 */
export function useDeleteItems<Row extends OverviewItem>(
  ns: ItemOverviewProps<Row>['ns'],
  deleteIds: (ids: number[]) => Promise<unknown>,
  clearSelection: () => void,
  reload: () => Promise<unknown>,
): (targets: Row[]) => Promise<void> {
  const { t } = useTranslation(ns);
  return async (targets) => {
    try {
      await deleteIds(targets.map((row) => row.id));
      showToast(t('deleted', { count: targets.length }), 'success');
      clearSelection();
      await reload();
    } catch (error) {
      showToast(t('deleteFailed'), 'error');
      throw error;
    }
  };
}

export interface ItemOverviewProps<Row extends OverviewItem> {
  /** The plugin's namespace: texts title, tableLabel, untitled, columns.*, empty, noMatch, search, loading, loadFailed. */
  ns: 'templates' | 'books';
  rows: Row[] | null;
  overview: OverviewState;
  href(row: Row): string;
  /** Columns between the title and the dates. */
  extraColumns?: Column<Row>[];
  /** Columns after the dates (actions). */
  actionColumns?: Column<Row>[];
  bulkActions(selected: Row[]): BulkAction[];
  /** The page's own menu entries (new, import), between the bulk menu and the search. */
  menuItems: OverviewMenuItem[];
  onDelete(row: Row): void;
  children?: ReactNode;
}

/**
 * The overview of a plugin (templates, books) in the conventions of the other overviews: the
 * overview menu (bulk actions, the page's entries, search) over the shared DataTable with title,
 * added and last changed.
 */
export function ItemOverview<Row extends OverviewItem>(props: ItemOverviewProps<Row>) {
  const { ns, rows, overview, href, extraColumns = [], actionColumns = [], menuItems, children } = props;
  const { t } = useTranslation(ns);
  const formatDate = useDateTimeFormat();
  const { search, setSearch, selected, setSelected, sort, setSort } = overview;
  const list = rows ?? [];
  const selectedRows = list.filter((row) => selected.has(String(row.id)));
  const untitled = t('untitled');
  const name = (row: Row) => row.title || untitled;

  const items: OverviewMenuItem[] = [
    {
      id: 'bulk',
      type: 'select-action',
      shortcut: 'a',
      allSelected: list.length > 0 && selectedRows.length === list.length,
      someSelected: selectedRows.length > 0,
      nothingToSelect: list.length === 0,
      onSelectAll: (checked) => setSelected(checked ? new Set(list.map((row) => String(row.id))) : new Set()),
      actions: props.bulkActions(selectedRows).map((action) => ({
        ...action,
        disabled: action.disabled || selectedRows.length === 0 || !overview.online,
      })),
    },
    ...menuItems,
    { id: 'search', type: 'search', shortcut: 's', title: t('search'), value: search, onChange: setSearch },
  ];

  const columns: Column<Row>[] = [
    {
      id: 'title',
      header: t('columns.title'),
      className: 'plugin-overview-title',
      sortValue: (row) => name(row).toLocaleLowerCase(),
      cell: (row) => <a href={href(row)}>{name(row)}</a>,
    },
    ...extraColumns,
    {
      id: 'added',
      header: t('columns.added'),
      className: 'plugin-overview-date plugin-overview-minor',
      sortValue: (row) => row.added,
      cell: (row) => formatDate(row.added),
    },
    {
      id: 'updated',
      header: t('columns.updated'),
      className: 'plugin-overview-date',
      sortValue: (row) => row.updated,
      cell: (row) => formatDate(row.updated),
    },
    ...actionColumns,
  ];

  return (
    <Page heading={t('title')} title={t('title')} className="plugin-overview">
      <CachedVersionNotice />
      <OverviewMenu items={items} />
      {overview.loading ? <p>{t('loading')}</p> : null}
      {overview.stale && rows === null ? <p role="alert">{t('loadFailed')}</p> : null}
      {rows !== null ? (
        <DataTable
          rows={rows}
          columns={columns}
          getRowId={(row) => String(row.id)}
          label={t('tableLabel')}
          selectable
          selected={selected}
          onSelectedChange={setSelected}
          rowLabel={name}
          onActivate={(row) => navigate(href(row))}
          onDelete={props.onDelete}
          emptyMessage={t('empty')}
          noMatchMessage={t('noMatch')}
          sort={sort}
          onSortChange={setSort}
          search={search}
          searchText={name}
        />
      ) : null}
      {children}
    </Page>
  );
}
