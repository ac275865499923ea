import type { Contact } from '@scriptorium/common/api/contacts';
import { BOOK_RIGHTS, type BookRight } from '@scriptorium/common/plugins/books-api';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, useClosingCommand } from '../../components/dialog/dialog';
import { Select } from '../../components/form/select';
import { showToast } from '../../components/toast/toast-emitter';
import { fetchContacts } from '../../pages/contacts/contacts-api';
import { fetchBookAccess, saveBookAccess } from './books-api';

const NONE = 'none';

export interface BookShareDialogProps {
  bookId: number;
  title: string;
  onClose(): void;
}

/** The owner gives each contact no right, read or write; saving replaces the book's rights at once. */
export function BookShareDialog({ bookId, title, onClose }: BookShareDialogProps) {
  const { t } = useTranslation('books');
  const [contacts, setContacts] = useState<Contact[] | null>(null);
  const [rights, setRights] = useState<Map<number, BookRight>>(new Map());

  useEffect(() => {
    let live = true;
    Promise.all([fetchContacts(), fetchBookAccess(bookId)]).then(
      ([people, access]) => {
        if (!live) return;
        setContacts(people.filter((person) => person.type === 'user'));
        setRights(new Map(access.map((entry) => [entry.user_id, entry.rights])));
      },
      () => {
        if (live) showToast(t('share.loadFailed'), 'error');
      },
    );
    return () => {
      live = false;
    };
  }, [bookId, t]);

  const save = useClosingCommand(
    () =>
      saveBookAccess(
        bookId,
        [...rights].map(([userId, right]) => ({ user_id: userId, rights: right })),
      ),
    onClose,
    { done: t('share.saved'), failed: t('share.saveFailed') },
  );

  return (
    <Dialog
      title={t('share.title', { title })}
      onClose={onClose}
      width={520}
      command={{ label: t('share.save'), ...save }}
    >
      {contacts === null ? <p>{t('loading')}</p> : null}
      {contacts?.length === 0 ? <p>{t('share.noContacts')}</p> : null}
      <ul className="plugin-section">
        {(contacts ?? []).map((person) => (
          <li key={person.id} className="wrap-row">
            <span>{person.name || person.email}</span>
            <Select<BookRight | typeof NONE>
              label={t('share.rightOf', { name: person.name || person.email })}
              hideLabel
              value={rights.get(person.id) ?? NONE}
              options={[
                { value: NONE, label: t('rights.none') },
                ...BOOK_RIGHTS.map((right) => ({ value: right, label: t(`rights.${right}`) })),
              ]}
              onChange={(value) => {
                const next = new Map(rights);
                if (value === NONE) next.delete(person.id);
                else next.set(person.id, value);
                setRights(next);
              }}
            />
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
