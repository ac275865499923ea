import { schema } from '@scriptorium/common/editor/schema';
import { REVISION_NAME_MAX, type RevisionEntry } from '@scriptorium/common/ws/review-messages';
import type { Node as PMNode } from 'prosemirror-model';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnHeads } from '../../../components/data-table/column-heads';
import { ConfirmDialog, Dialog, FormDialog } from '../../../components/dialog/dialog';
import { type ReviewStore, revisionsOf } from './review-store';
import { RevisionDocument } from './revision-document';

/** File > Save revision: asks for a name. */
export function SaveRevisionDialog({
  store,
  onClose,
  notify,
}: {
  store: ReviewStore;
  onClose(): void;
  notify(m: string): void;
}) {
  const { t } = useTranslation('review');
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const id = useId();
  const submit = async () => {
    if (!name.trim()) {
      setError(t('revisions.nameRequired'));
      return;
    }
    const answer = await store.request({ type: 'revision_save', name: name.trim() });
    if (!answer.ok) setError(t(`error.${answer.error}`));
    else {
      notify(t('revisions.saved', { name: name.trim() }));
      onClose();
    }
  };
  return (
    <FormDialog
      title={t('revisions.saveTitle')}
      onClose={onClose}
      width={420}
      submitLabel={t('revisions.save')}
      onSubmit={submit}
    >
      <div className="form-field">
        <label htmlFor={`${id}-name`}>{t('revisions.name')}</label>
        <input
          id={`${id}-name`}
          // biome-ignore lint/a11y/noAutofocus: a modal dialog's field (Biome exempts <dialog>, not FormDialog); the dialog would focus its close button first, typing is what the user came for.
          autoFocus
          maxLength={REVISION_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error ? (
          <p id={`${id}-error`} className="form-errors" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </FormDialog>
  );
}

type Shown =
  | { kind: 'open'; revision: RevisionEntry; doc: PMNode }
  | { kind: 'compare'; a: Labelled; b: Labelled };

interface Labelled {
  label: string;
  doc: PMNode;
}

/** File > History: the revisions with author and time; open, compare any two, restore. */
export function HistoryDialog(props: {
  store: ReviewStore;
  current: () => PMNode;
  canRestore: boolean;
  onClose(): void;
  notify(message: string): void;
}) {
  const { store, canRestore, onClose, notify } = props;
  const { t, i18n } = useTranslation('review');
  const [revisions, setRevisions] = useState<RevisionEntry[] | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState('');
  /** The revision a restore waits to be confirmed for. */
  const [restoring, setRestoring] = useState<RevisionEntry | null>(null);
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const load = async () => {
    const answer = await store.request({ type: 'revisions_list' });
    if (!answer.ok) setError(t(`error.${answer.error}`));
    setRevisions(revisionsOf(answer));
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once when the dialog opens
  useEffect(() => {
    void load();
  }, []);

  const label = (revision: RevisionEntry) =>
    `${revision.name || t('revisions.auto')} (${format.format(revision.created)})`;
  const fetchDoc = async (revision: RevisionEntry): Promise<PMNode | null> => {
    const answer = await store.request({ type: 'revision_get', revision: revision.id });
    if (!answer.ok || answer.message.type !== 'revision') {
      setError(t(`error.${answer.ok ? 'gone' : answer.error}`));
      return null;
    }
    return schema.nodeFromJSON(answer.message.content);
  };
  const open = async (revision: RevisionEntry) => {
    const doc = await fetchDoc(revision);
    if (doc) setShown({ kind: 'open', revision, doc });
  };
  const compare = async () => {
    const chosen = (revisions ?? [])
      .filter((r) => picked.includes(r.id))
      .sort((x, y) => x.created - y.created);
    const docs = await Promise.all(chosen.map(fetchDoc));
    if (docs.some((doc) => !doc)) return;
    if (chosen.length === 2)
      setShown({
        kind: 'compare',
        a: { label: label(chosen[0]), doc: docs[0] as PMNode },
        b: { label: label(chosen[1]), doc: docs[1] as PMNode },
      });
    else if (chosen.length === 1)
      setShown({
        kind: 'compare',
        a: { label: label(chosen[0]), doc: docs[0] as PMNode },
        b: { label: t('revisions.current'), doc: props.current() },
      });
  };
  // The server first keeps the current text as an automatic revision, then restores: a restore
  // is undone by restoring that one (the question and the notice say so).
  const restore = async (revision: RevisionEntry) => {
    const answer = await store.request({ type: 'revision_restore', revision: revision.id });
    setRestoring(null);
    if (!answer.ok) setError(t(`error.${answer.error}`));
    else {
      notify(t('revisions.restored', { name: label(revision) }));
      onClose();
    }
  };

  if (shown)
    return (
      <Dialog
        title={
          shown.kind === 'open'
            ? t('revisions.openTitle', { name: label(shown.revision) })
            : t('revisions.compareTitle', { a: shown.a.label, b: shown.b.label })
        }
        onClose={() => setShown(null)}
        width={900}
        buttons={
          <button type="button" className="button" onClick={() => setShown(null)}>
            {t('revisions.back')}
          </button>
        }
      >
        {shown.kind === 'compare' ? (
          <p className="review-legend">
            <span className="review-diff-inserted">{t('revisions.inserted')}</span>{' '}
            <span className="review-diff-deleted">{t('revisions.deleted')}</span>
          </p>
        ) : null}
        <RevisionDocument
          doc={shown.kind === 'open' ? shown.doc : shown.b.doc}
          before={shown.kind === 'compare' ? shown.a.doc : null}
        />
      </Dialog>
    );

  return (
    <Dialog
      title={t('revisions.title')}
      onClose={onClose}
      width={640}
      buttons={
        <>
          <button
            type="button"
            className="button button-primary"
            disabled={!picked.length}
            onClick={() => void compare()}
          >
            {picked.length === 1 ? t('revisions.compareCurrent') : t('revisions.compare')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('revisions.close')}
          </button>
        </>
      }
    >
      {error ? (
        <p className="form-errors" role="alert">
          {error}
        </p>
      ) : null}
      {revisions === null ? (
        <p>{t('revisions.loading')}</p>
      ) : revisions.length === 0 ? (
        <p>{t('revisions.empty')}</p>
      ) : (
        <table className="review-revisions">
          <ColumnHeads
            labels={[t('revisions.pick'), t('revisions.name'), t('revisions.author'), t('revisions.time')]}
            actions={t('revisions.actions')}
          />
          <tbody>
            {revisions.map((revision) => (
              <tr key={revision.id} data-revision={revision.name || 'auto'}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t('revisions.pickOne', { name: label(revision) })}
                    checked={picked.includes(revision.id)}
                    onChange={(e) =>
                      setPicked((now) =>
                        e.target.checked
                          ? [...now.slice(-1), revision.id]
                          : now.filter((id) => id !== revision.id),
                      )
                    }
                  />
                </td>
                <td>{revision.name || t('revisions.auto')}</td>
                <td>{revision.username}</td>
                <td>{format.format(revision.created)}</td>
                <td className="review-revision-actions">
                  <button type="button" className="button" onClick={() => void open(revision)}>
                    {t('revisions.open')}
                  </button>
                  {canRestore ? (
                    <button type="button" className="button" onClick={() => setRestoring(revision)}>
                      {t('revisions.restore')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {restoring ? (
        <ConfirmDialog
          title={t('revisions.confirmRestoreTitle')}
          message={t('revisions.confirmRestore', { name: label(restoring) })}
          confirmLabel={t('revisions.restore')}
          onConfirm={() => restore(restoring)}
          onClose={() => setRestoring(null)}
        />
      ) : null}
    </Dialog>
  );
}
