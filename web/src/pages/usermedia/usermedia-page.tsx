import {
  fileTypeLabel,
  IMAGE_TABLE_PAGE_SIZE,
  IMAGE_TABLE_PAGE_SIZES,
  type Image,
  type ImageCategory,
  NARROW_WINDOW_WIDTH,
} from '@scriptorium/common/api/usermedia';
import { Image as ImageIcon } from 'lucide-react';
import { type DragEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/page-title';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { useWindowSize } from '../../components/data-table/use-window-size';
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
import { CategoriesDialog } from './categories-dialog';
import { droppedFiles, ImageDialog, type ImageDialogMode } from './image-dialog';
import { deleteImages, fetchImages } from './usermedia-api';
import './usermedia.css';
import { TrashIcon } from '../../components/icons/trash-icon';

type DialogState =
  | { kind: 'none' }
  | { kind: 'image'; mode: ImageDialogMode }
  | { kind: 'categories' }
  | { kind: 'delete'; ids: number[] };

/** The sort outlives list refreshes and leaving the page for a while (spec 2.5). */

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatDate(ms: number, language: string): string {
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
    dateFormats.set(language, format);
  }
  return format.format(ms);
}

/** The media (image) manager at /usermedia/ (spec 2.5). */
export function UsermediaPage() {
  const { t, i18n } = useTranslation('usermedia');
  usePageTitle(t('title'));
  // Sort held outside the table, so that it survives every refresh of the list (spec 2.5).
  const overview = useOverviewState({ rememberSort: 'usermedia' });
  const { online, search, setSearch, sort, setSort, selected, setSelected, keepSelected, finishLoad } =
    overview;
  const { width } = useWindowSize();
  const narrow = width < NARROW_WINDOW_WIDTH;

  const [images, setImages] = useState<Image[]>([]);
  const [categories, setCategories] = useState<ImageCategory[]>([]);
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const closeDialog = () => setDialog({ kind: 'none' });

  const refresh = useCallback(async () => {
    try {
      const answer = await fetchImages();
      setImages(answer.images);
      setCategories(answer.imageCategories);
      // Drop selections of images that are gone.
      const ids = new Set(answer.images.map((image) => String(image.id)));
      keepSelected((id) => ids.has(id));
      finishLoad(true);
    } catch {
      showToast(navigator.onLine ? t('listError') : t('offline'), 'error');
      finishLoad(false);
    }
  }, [t, keepSelected, finishLoad]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // A file dropped beside the drop zone (e.g. on a dialog's backdrop) must not make the browser
  // leave the app to show it.
  useEffect(() => {
    const keep = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);

  // A filter on a category that was just removed falls back to all.
  const activeFilter = overview.activeFilter((id) =>
    categories.some((category) => String(category.id) === id),
  );
  const rows = useMemo(
    () =>
      activeFilter === ALL_ROWS
        ? images
        : images.filter((image) => image.cats.includes(Number(activeFilter))),
    [images, activeFilter],
  );

  const titleOf = (image: Image) => image.title || t('untitled');
  const openEdit = (image: Image) => setDialog({ kind: 'image', mode: { kind: 'edit', image } });
  const openUpload = (files: File[] = []) => {
    if (!navigator.onLine) {
      showToast(t('offline'), 'error');
      return;
    }
    setDialog({ kind: 'image', mode: { kind: 'new', files } });
  };
  const askDelete = (ids: number[]) => {
    // Spec 5: deletion is blocked offline with an error message.
    if (!navigator.onLine) {
      showToast(t('offline'), 'error');
      return;
    }
    if (ids.length > 0) setDialog({ kind: 'delete', ids });
  };

  const confirmDelete = async (ids: number[]) => {
    if (!navigator.onLine) {
      showToast(t('offline'), 'error');
      return;
    }
    try {
      await deleteImages(ids);
      showToast(t('deleted'), 'success');
    } catch {
      showToast(navigator.onLine ? t('notDeleted') : t('offline'), 'error');
    }
    await refresh();
  };

  const selectedIds = [...selected].map(Number);
  const visibleIds = rows.map((image) => String(image.id));
  const someSelected = visibleIds.some((id) => selected.has(id));

  const columns: Column<Image>[] = [
    { id: 'id', header: 'id', hidden: true, cell: (image) => image.id },
    {
      id: 'file',
      header: t('columnFile'),
      className: 'usermedia-file-cell',
      sortValue: (image) => image.title.toLocaleLowerCase(),
      cell: (image) => (
        <div className="usermedia-file">
          <img className="usermedia-thumbnail" src={image.thumbnail} alt="" loading="lazy" />
          <div>
            <button
              type="button"
              className="usermedia-title link-button clamp-2"
              aria-label={t('editImage', { title: titleOf(image) })}
              onClick={() => openEdit(image)}
            >
              {titleOf(image)}
            </button>
            <span className="usermedia-type">{fileTypeLabel(image.file_type)}</span>
          </div>
        </div>
      ),
    },
    {
      id: 'size',
      header: t('columnSize'),
      sortValue: (image) => image.width * image.height,
      cell: (image) => t('sizePx', { width: image.width, height: image.height }),
    },
    {
      id: 'added',
      header: t('columnAdded'),
      sortValue: (image) => image.added,
      cell: (image) => (
        <time dateTime={new Date(image.added).toISOString()}>{formatDate(image.added, i18n.language)}</time>
      ),
    },
    {
      id: 'delete',
      header: '',
      headerLabel: t('columnActions'),
      className: 'usermedia-actions',
      cell: (image) => (
        <button
          type="button"
          // Stays clickable offline: it then explains why nothing can be deleted (spec 5).
          className={`icon-button usermedia-delete${online ? '' : ' usermedia-offline'}`}
          aria-label={t('deleteImage', { title: titleOf(image) })}
          onClick={() => askDelete([image.id])}
        >
          <TrashIcon />
        </button>
      ),
    },
  ];

  const menuItems: OverviewMenuItem[] = [
    visibleRowsBulkItem(selected, setSelected, visibleIds, someSelected, [
      {
        label: t('deleteSelected'),
        disabled: selected.size === 0 || !online,
        onSelect: () => askDelete(selectedIds),
      },
    ]),
    categoryFilterItem(
      { title: t('categoryFilter'), all: t('allCategories') },
      categories,
      activeFilter,
      overview.setFilter,
    ),
    editCategoriesItem(t('editCategories'), online, () => setDialog({ kind: 'categories' })),
    {
      type: 'text',
      id: 'upload',
      title: t('uploadNew'),
      shortcut: 'u',
      disabled: !online,
      onSelect: () => openUpload(),
    },
    {
      type: 'search',
      id: 'search',
      title: t('searchImages'),
      shortcut: 's',
      value: search,
      onChange: setSearch,
    },
  ];

  const onPageDrop = (event: DragEvent<HTMLElement>) => {
    const files = droppedFiles(event);
    if (files.length === 0 || dialog.kind !== 'none') return;
    event.preventDefault();
    openUpload(files);
  };

  return (
    <section
      className="page usermedia-page"
      aria-labelledby="page-heading"
      onDragOver={(event) => {
        if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
      }}
      onDrop={onPageDrop}
    >
      <h1 id="page-heading">{t('title')}</h1>
      <OverviewMenu items={menuItems} />
      <CachedVersionNotice />
      <DataTable
        loading={overview.loading}
        loadingMessage={t('loading')}
        emptyIcon={ImageIcon}
        emptyAction={{ label: t('emptyAction'), disabled: !online, onAction: () => openUpload() }}
        rows={rows}
        columns={columns}
        getRowId={(image) => String(image.id)}
        label={t('title')}
        selectable={!narrow}
        selected={selected}
        onSelectedChange={setSelected}
        rowLabel={titleOf}
        onActivate={(image) => {
          // Spec 2.5: Enter edits the row only while nothing is selected.
          if (selected.size === 0) openEdit(image);
        }}
        onDelete={(image) => askDelete([image.id])}
        emptyMessage={images.length === 0 ? t('noImages') : t('noImagesFound')}
        noMatchMessage={t('noImagesFound')}
        pageSize={IMAGE_TABLE_PAGE_SIZE}
        pageSizeOptions={[...IMAGE_TABLE_PAGE_SIZES]}
        sort={sort}
        onSortChange={setSort}
        search={search}
        searchText={(image) => `${titleOf(image)} ${fileTypeLabel(image.file_type)}`}
        className="usermedia-table"
      />
      {dialog.kind === 'image' ? (
        <ImageDialog
          mode={dialog.mode}
          categories={categories}
          online={online}
          onClose={closeDialog}
          onSaved={() => void refresh()}
        />
      ) : null}
      {dialog.kind === 'categories' ? (
        <CategoriesDialog
          categories={categories}
          online={online}
          onClose={closeDialog}
          onSaved={(entries) => {
            setCategories(entries);
            void refresh();
          }}
        />
      ) : null}
      {dialog.kind === 'delete' ? (
        <ConfirmDeleteDialog
          namespace="usermedia"
          ids={dialog.ids}
          onConfirm={confirmDelete}
          onClose={closeDialog}
        />
      ) : null}
    </section>
  );
}
