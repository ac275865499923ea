import type { Contact } from '@scriptorium/common/api/contacts';
import {
  ACCESS_RIGHTS,
  type AccessEntry,
  type AccessRight,
  type DocumentEntry,
} from '@scriptorium/common/api/documents';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnHeads } from '../../components/data-table/column-heads';
import { Dialog, type DialogSize, useClosingCommand } from '../../components/dialog/dialog';
import { Select } from '../../components/form/select';
import { fetchContacts, inviteContact } from '../contacts/contacts-api';
import { fetchAccess, saveAccess } from './documents-api';

export const SHARE_DIALOG_SIZE: DialogSize = { width: 640, height: 520 };

/** The right a newly added person starts with: enough to read, nothing they could break. */
const DEFAULT_RIGHT: AccessRight = 'read';

type Holder = Pick<AccessEntry, 'holder_type' | 'holder_id' | 'name' | 'email' | 'rights'>;

const holderKey = (holder: Pick<Holder, 'holder_type' | 'holder_id'>) =>
  `${holder.holder_type}:${holder.holder_id}`;

/** Only connected users and invites the user sent can hold a right (received invites cannot). */
function shareable(contact: Contact): contact is Contact & { type: 'user' | 'userinvite' } {
  return contact.type === 'user' || contact.type === 'userinvite';
}

export interface ShareDialogProps {
  /** The documents to share; the user owns them. With several, the rights shown are the first's. */
  documents: DocumentEntry[];
  onClose(): void;
  onSaved(): void;
}

/**
 * The owner picks contacts and a right for each, invites a new person by e-mail, changes and
 * removes rights. Saving replaces the document's rights at once (the server does it atomically).
 */
export function ShareDialog({ documents, onClose, onSaved }: ShareDialogProps) {
  const { t } = useTranslation('documents');
  const [contacts, setContacts] = useState<Contact[] | null>(null);
  const [holders, setHolders] = useState<Holder[] | null>(null);
  const [pick, setPick] = useState('');
  const [pickRight, setPickRight] = useState<AccessRight>(DEFAULT_RIGHT);
  const [address, setAddress] = useState('');
  const [inviteMessage, setInviteMessage] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const addressId = useId();
  const first = documents[0];

  useEffect(() => {
    let live = true;
    Promise.all([fetchContacts(), fetchAccess(first.id)])
      .then(([contactList, access]) => {
        if (!live) return;
        setContacts(contactList);
        setHolders(access);
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [first.id]);

  const candidates = useMemo(() => {
    const taken = new Set((holders ?? []).map(holderKey));
    return (contacts ?? [])
      .filter(shareable)
      .filter((contact) => !taken.has(holderKey({ holder_type: contact.type, holder_id: contact.id })));
  }, [contacts, holders]);

  const rightLabel = (right: AccessRight) => t(`rights.${right}`);

  const addContact = (contact: Contact & { type: 'user' | 'userinvite' }, rights: AccessRight) => {
    setHolders((list) => {
      const current = list ?? [];
      const key = holderKey({ holder_type: contact.type, holder_id: contact.id });
      if (current.some((holder) => holderKey(holder) === key)) return current;
      return [
        ...current,
        {
          holder_type: contact.type,
          holder_id: contact.id,
          name: contact.name || contact.email,
          email: contact.type === 'userinvite' ? contact.email : null,
          rights,
        },
      ];
    });
  };

  const addPicked = () => {
    const contact = candidates.find((candidate) => `${candidate.type}:${candidate.id}` === pick);
    if (!contact) return;
    addContact(contact, pickRight);
    setPick('');
  };

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    const typed = address.trim();
    if (typed === '') return;
    setInviteMessage(null);
    const answer = await inviteContact(typed);
    if (!answer.ok) {
      setInviteMessage(answer.message ?? t('share.inviteFailed'));
      return;
    }
    setContacts((list) => [...(list ?? []), answer.contact]);
    if (shareable(answer.contact)) addContact(answer.contact, pickRight);
    setAddress('');
    setInviteMessage(t('share.invited', { email: typed }));
  };

  const save = useClosingCommand(
    async () => {
      if (!holders) return; // The command is disabled until they are loaded.
      const access = holders.map(({ holder_type, holder_id, rights }) => ({
        holder_type,
        holder_id,
        rights,
      }));
      for (const doc of documents) await saveAccess(doc.id, access);
      onSaved();
    },
    onClose,
    { done: t('share.saved'), failed: t('share.saveFailed') },
  );

  return (
    <Dialog
      title={t('share.title')}
      onClose={onClose}
      {...SHARE_DIALOG_SIZE}
      command={{ label: t('share.save'), ...save, disabled: holders === null }}
    >
      <div className="share-dialog">
        <p className="share-dialog-intro">
          {documents.length > 1
            ? t('share.several', { count: documents.length })
            : t('share.one', { title: first.title || t('untitled') })}
        </p>
        {failed ? <p role="alert">{t('share.loadFailed')}</p> : null}
        {holders === null && !failed ? <p>{t('loading')}</p> : null}
        {holders !== null ? (
          <table className="share-holders">
            <caption className="share-caption">{t('share.holders')}</caption>
            <ColumnHeads labels={[t('share.person'), t('columns.rights')]} actions={t('share.remove')} />
            <tbody>
              {holders.length === 0 ? (
                <tr>
                  <td colSpan={3}>{t('share.nobody')}</td>
                </tr>
              ) : null}
              {holders.map((holder) => (
                <tr key={holderKey(holder)} data-holder={holderKey(holder)}>
                  <td>
                    {holder.name}
                    {holder.holder_type === 'userinvite' ? (
                      <span className="share-pending"> ({t('share.pending')})</span>
                    ) : null}
                  </td>
                  <td>
                    <Select<AccessRight>
                      label={t('share.rightOf', { name: holder.name })}
                      hideLabel
                      value={holder.rights}
                      options={ACCESS_RIGHTS.map((right) => ({ value: right, label: rightLabel(right) }))}
                      onChange={(rights) =>
                        setHolders((list) =>
                          (list ?? []).map((item) =>
                            holderKey(item) === holderKey(holder) ? { ...item, rights } : item,
                          ),
                        )
                      }
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button share-remove"
                      aria-label={t('share.removeNamed', { name: holder.name })}
                      onClick={() =>
                        setHolders((list) =>
                          (list ?? []).filter((item) => holderKey(item) !== holderKey(holder)),
                        )
                      }
                    >
                      {t('share.remove')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {holders !== null ? (
          <div className="share-add">
            <Select
              className="share-contact"
              label={t('share.contact')}
              value={pick}
              options={[
                {
                  value: '',
                  label: candidates.length === 0 ? t('share.noContacts') : t('share.chooseContact'),
                },
                ...candidates.map((contact) => ({
                  value: `${contact.type}:${contact.id}`,
                  label: `${contact.name || contact.email}${
                    contact.email && contact.name !== contact.email ? ` <${contact.email}>` : ''
                  }`,
                })),
              ]}
              onChange={setPick}
            />
            <Select<AccessRight>
              label={t('share.newRight')}
              value={pickRight}
              options={ACCESS_RIGHTS.map((right) => ({ value: right, label: rightLabel(right) }))}
              onChange={setPickRight}
            />
            <button type="button" className="button" disabled={pick === ''} onClick={addPicked}>
              {t('share.add')}
            </button>
          </div>
        ) : null}
        {holders !== null ? (
          <form className="share-invite" onSubmit={(event) => void invite(event)}>
            <label htmlFor={addressId}>{t('share.inviteLabel')}</label>
            <input
              id={addressId}
              type="email"
              placeholder={t('share.emailPlaceholder')}
              value={address}
              onChange={(event) => setAddress(event.target.value)}
            />
            <button type="submit" className="button">
              {t('share.invite')}
            </button>
            {inviteMessage ? (
              <p className="share-invite-message" role="status">
                {inviteMessage}
              </p>
            ) : null}
          </form>
        ) : null}
      </div>
    </Dialog>
  );
}
