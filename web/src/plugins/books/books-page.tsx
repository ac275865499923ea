import type { BookListEntry } from '@scriptorium/common/plugins/books-api';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/router/navigation';
import { ConfirmDialog } from '../../components/dialog/dialog';
import { useOverviewRows } from '../../components/overview/use-overview-rows';
import { useOverviewState } from '../../components/overview/use-overview-state';
import { MessagePage } from '../../components/page/page';
import { showToast } from '../../components/toast/toast-emitter';
import { ItemOverview, useDeleteItems } from '../shared/item-overview';
import { BookEditor } from './book-editor';
import { BookShareDialog } from './book-share-dialog';
import { createBook, deleteBooks, fetchBooks } from './books-api';

export interface BooksPageProps {
  /** The address after /books/, e.g. "" (the overview) or "3/" (a book). */
  path: string;
}

export function bookUrl(id: number): string {
  return `/books/${id}/`;
}

/** Books (plugin, spec 2.1): the overview, or the book editor for /books/{id}/. */
export function BooksPage({ path }: BooksPageProps) {
  const { t } = useTranslation('books');
  if (path === '' || path === '/') return <BooksOverview />;
  const match = /^(\d+)\/?$/.exec(path);
  if (!match)
    return (
      <MessagePage heading={t('notFound.title')} text={t('notFound.text')} title={t('notFound.title')} />
    );
  return <BookEditor key={match[1]} id={Number(match[1])} />;
}

function BooksOverview() {
  const { t } = useTranslation('books');
  const overview = useOverviewState();
  const { finishLoad, clearSelection } = overview;
  const { rows, reload } = useOverviewRows(fetchBooks, finishLoad, t('loadFailed'));
  const [deleting, setDeleting] = useState<BookListEntry[] | null>(null);
  const [sharing, setSharing] = useState<BookListEntry | null>(null);

  const newBook = async () => {
    try {
      navigate(bookUrl(await createBook(t('newTitle'))));
    } catch {
      showToast(t('createFailed'), 'error');
    }
  };

  const remove = useDeleteItems<BookListEntry>('books', deleteBooks, clearSelection, reload);

  const leaving = deleting?.filter((row) => !row.is_owner).length ?? 0;

  return (
    <ItemOverview
      ns="books"
      rows={rows}
      overview={overview}
      href={(row) => bookUrl(row.id)}
      extraColumns={[
        {
          id: 'owner',
          header: t('columns.owner'),
          className: 'plugin-overview-minor',
          sortValue: (row) => (row.is_owner ? '' : row.owner),
          cell: (row) => (row.is_owner ? t('me') : row.owner),
        },
        {
          id: 'rights',
          header: t('columns.rights'),
          className: 'plugin-overview-minor',
          sortValue: (row) => row.rights ?? '',
          cell: (row) => (row.rights === null ? t('rights.owner') : t(`rights.${row.rights}`)),
        },
      ]}
      actionColumns={[
        {
          id: 'actions',
          header: t('columns.actions'),
          cell: (row) =>
            row.is_owner ? (
              <button
                type="button"
                className="button"
                aria-label={t('shareNamed', { name: row.title || t('untitled') })}
                onClick={() => setSharing(row)}
              >
                {t('share.button')}
              </button>
            ) : null,
        },
      ]}
      bulkActions={(selected) => [{ label: t('bulk.delete'), onSelect: () => setDeleting(selected) }]}
      menuItems={[
        {
          id: 'new-book',
          type: 'text',
          shortcut: 'n',
          title: t('newBook'),
          disabled: !overview.online,
          onSelect: () => void newBook(),
        },
      ]}
      onDelete={(row) => setDeleting([row])}
    >
      {deleting ? (
        <ConfirmDialog
          title={t('deleteDialog.title')}
          message={`${t('deleteDialog.message', { count: deleting.length })}${leaving > 0 ? ` ${t('deleteDialog.leave', { count: leaving })}` : ''}`}
          confirmLabel={t('deleteDialog.confirm')}
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        />
      ) : null}
      {sharing ? (
        <BookShareDialog
          bookId={sharing.id}
          title={sharing.title || t('untitled')}
          onClose={() => setSharing(null)}
        />
      ) : null}
    </ItemOverview>
  );
}
