import type { BibSource, SourceReport } from '@scriptorium/common/api/bib-sources';
import { bibSourcesApi } from '@scriptorium/common/api/endpoints/bibliography';
import { RefreshCw, Trash2 } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { ConfirmDialog, Dialog } from '../../components/dialog/dialog';
import { FieldErrors } from '../../components/form/field-errors';
import { RadioGroup } from '../../components/form/radio-group';
import { TextField } from '../../components/form/text-field';
import { showToast } from '../../components/toast/toast';

/**
 * Bibliography sources (issue 57): files at URLs and Zotero libraries the server keeps in sync
 * with a category of the bibliography. Lists them with their last sync's report, syncs one now,
 * removes one, adds one (its first sync runs at once and its report is shown).
 */

export interface SourcesDialogProps {
  onClose(): void;
  /** Entries may have changed: the page reloads its list. */
  onSynced(): void;
}

type Kind = 'url' | 'zotero';
type Library = 'user' | 'group';

function serverMessage(error: unknown): string | null {
  if (error instanceof ApiError && error.body && typeof error.body === 'object') {
    const message = (error.body as { message?: unknown }).message;
    if (typeof message === 'string' && error.status === 400) return message;
  }
  return null;
}

export function SourcesDialog({ onClose, onSynced }: SourcesDialogProps) {
  const { t } = useTranslation('bibliography');
  const [sources, setSources] = useState<BibSource[] | null>(null);
  const [busy, setBusy] = useState<number | 'add' | null>(null);
  const [removing, setRemoving] = useState<BibSource | null>(null);
  const [announce, setAnnounce] = useState('');

  const load = useCallback(async () => {
    try {
      setSources((await call(bibSourcesApi.list, {})).sources);
    } catch {
      setSources([]);
      showToast(t('sources.loadError'), 'error');
    }
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);

  const replace = (source: BibSource) => {
    setSources((current) => {
      const list = current ?? [];
      return list.some((s) => s.id === source.id)
        ? list.map((s) => (s.id === source.id ? source : s))
        : [...list, source];
    });
    setAnnounce(`${source.title}: ${reportSummary(t, source.report)}`);
    onSynced();
  };

  const sync = async (source: BibSource) => {
    setBusy(source.id);
    try {
      replace((await call(bibSourcesApi.sync, { id: source.id })).source);
    } catch (error) {
      showToast(
        error instanceof ApiError && error.status === 429 ? t('sources.busy') : t('sources.syncError'),
        'error',
      );
    } finally {
      setBusy(null);
    }
  };

  const remove = async (source: BibSource) => {
    await call(bibSourcesApi.remove, { id: source.id });
    setSources((current) => (current ?? []).filter((s) => s.id !== source.id));
    showToast(t('sources.removed', { title: source.title }), 'success');
  };

  return (
    <Dialog
      title={t('sources.title')}
      onClose={() => {
        if (busy === null) onClose();
      }}
      width={720}
      buttons={
        <button type="button" className="button" onClick={onClose} disabled={busy !== null}>
          {t('close')}
        </button>
      }
    >
      <div className="bib-sources">
        <p className="bib-hint">{t('sources.intro')}</p>
        <div className="visually-hidden" role="status" aria-live="polite">
          {announce}
        </div>
        {sources === null ? (
          <p role="status">{t('loading')}</p>
        ) : sources.length === 0 ? (
          <p>{t('sources.none')}</p>
        ) : (
          <ul className="bib-source-list" aria-label={t('sources.listLabel')}>
            {sources.map((source) => (
              <SourceItem
                key={source.id}
                source={source}
                busy={busy === source.id}
                disabled={busy !== null}
                onSync={() => void sync(source)}
                onRemove={() => setRemoving(source)}
              />
            ))}
          </ul>
        )}
        <AddSourceForm
          busy={busy === 'add'}
          disabled={busy !== null}
          onAdd={async (input) => {
            setBusy('add');
            try {
              replace((await call(bibSourcesApi.add, input)).source);
              return null;
            } catch (error) {
              const message = serverMessage(error);
              if (!message) showToast(t('sources.addError'), 'error');
              return message;
            } finally {
              setBusy(null);
            }
          }}
        />
      </div>
      {removing ? (
        <ConfirmDialog
          title={t('sources.removeTitle')}
          message={t('sources.removeMessage', { title: removing.title })}
          confirmLabel={t('sources.remove')}
          onConfirm={() => remove(removing)}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </Dialog>
  );
}

type TFunction = ReturnType<typeof useTranslation<'bibliography'>>['t'];

function reportSummary(t: TFunction, report: SourceReport | null): string {
  if (!report) return t('sources.neverSynced');
  if (report.errors.length > 0) return t('sources.failed');
  if (report.not_modified) return t('sources.notModified');
  return t('sources.summary', {
    added: report.added.length,
    updated: report.updated.length,
    gone: report.gone.length,
  });
}

function describe(t: TFunction, source: BibSource): string {
  if (source.kind === 'url') return source.url ?? '';
  const library = t(source.zotero_library === 'group' ? 'sources.zoteroGroup' : 'sources.zoteroUser', {
    id: source.zotero_id,
  });
  return source.zotero_collection
    ? `${library} · ${t('sources.collectionNamed', { key: source.zotero_collection })}`
    : library;
}

function SourceItem({
  source,
  busy,
  disabled,
  onSync,
  onRemove,
}: {
  source: BibSource;
  busy: boolean;
  disabled: boolean;
  onSync(): void;
  onRemove(): void;
}) {
  const { t, i18n } = useTranslation('bibliography');
  const report = source.report;
  const headingId = useId();
  const keys = (list: string[]) =>
    list.length > 12 ? `${list.slice(0, 12).join(', ')}, …` : list.join(', ');
  return (
    <li className="bib-source" aria-labelledby={headingId}>
      <div className="bib-source-head">
        <div className="bib-source-name">
          <h3 id={headingId}>{source.title}</h3>
          <p className="bib-source-where">{describe(t, source)}</p>
        </div>
        <div className="bib-source-actions">
          <button
            type="button"
            className="button"
            aria-disabled={disabled || undefined}
            aria-label={t('sources.syncNamed', { title: source.title })}
            onClick={() => {
              if (!disabled) onSync();
            }}
          >
            <RefreshCw size={16} aria-hidden className={busy ? 'bib-source-spin' : undefined} />
            <span>{busy ? t('sources.syncing') : t('sources.sync')}</span>
          </button>
          <button
            type="button"
            className="icon-button"
            aria-disabled={disabled || undefined}
            aria-label={t('sources.removeNamed', { title: source.title })}
            onClick={() => {
              if (!disabled) onRemove();
            }}
          >
            <Trash2 size={18} aria-hidden />
          </button>
        </div>
      </div>
      <div className="bib-source-report">
        <p>
          {source.synced_at
            ? t('sources.lastSync', {
                when: new Date(source.synced_at).toLocaleString(i18n.language),
              })
            : null}{' '}
          <strong>{reportSummary(t, report)}</strong>{' '}
          {t('sources.counts', { entries: source.entries, gone: source.gone })}
        </p>
        {report && report.errors.length > 0 ? (
          <ul className="bib-report-list">
            {report.errors.map((problem, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a stored report never changes
              <li key={index} className="bib-report-error">
                <strong>{t('error')}</strong> {problem.entry ? <code>{problem.entry}</code> : null}{' '}
                {t(`sourceError.${problem.code}`, {
                  defaultValue: t('sourceError.other', { code: problem.code }),
                  detail: problem.detail ?? '',
                })}
                {problem.code === 'invalid_entries' && problem.detail ? ` (${problem.detail})` : ''}
              </li>
            ))}
          </ul>
        ) : null}
        {report &&
        report.errors.length === 0 &&
        report.added.length + report.updated.length + report.gone.length > 0 ? (
          <dl className="bib-source-keys">
            {(['added', 'updated', 'gone'] as const).map((list) =>
              report[list].length > 0 ? (
                <div key={list}>
                  <dt>{t(`sources.${list}`)}</dt>
                  <dd>{keys(report[list])}</dd>
                </div>
              ) : null,
            )}
          </dl>
        ) : null}
      </div>
    </li>
  );
}

interface AddInput {
  kind: Kind;
  title: string;
  url?: string;
  zotero_library?: Library;
  zotero_id?: string;
  zotero_key?: string;
  zotero_collection?: string;
}

function AddSourceForm({
  busy,
  disabled,
  onAdd,
}: {
  busy: boolean;
  disabled: boolean;
  /** Answers the server's message when it refused the source. */
  onAdd(input: AddInput): Promise<string | null>;
}) {
  const { t } = useTranslation('bibliography');
  const [kind, setKind] = useState<Kind>('url');
  const [title, setTitle] = useState('');
  const [url, setUrl] = useState('');
  const [library, setLibrary] = useState<Library>('user');
  const [libraryId, setLibraryId] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [collection, setCollection] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [refused, setRefused] = useState<string | null>(null);
  const headingId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (disabled) return;
    const problems: Record<string, string[]> = {};
    if (!title.trim()) problems.title = [t('sources.titleRequired')];
    if (kind === 'url' && !/^https?:\/\/\S+$/i.test(url.trim())) problems.url = [t('sources.urlInvalid')];
    if (kind === 'zotero' && !/^\d{1,20}$/.test(libraryId.trim()))
      problems.libraryId = [t('sources.libraryIdInvalid')];
    if (kind === 'zotero' && collection.trim() && !/^[A-Z0-9]{1,20}$/.test(collection.trim()))
      problems.collection = [t('sources.collectionInvalid')];
    setErrors(problems);
    setRefused(null);
    if (Object.keys(problems).length > 0) return;
    const input: AddInput =
      kind === 'url'
        ? { kind, title: title.trim(), url: url.trim() }
        : {
            kind,
            title: title.trim(),
            zotero_library: library,
            zotero_id: libraryId.trim(),
            zotero_key: apiKey.trim(),
            zotero_collection: collection.trim(),
          };
    const message = await onAdd(input);
    if (message) setRefused(message);
    else {
      setTitle('');
      setUrl('');
      setLibraryId('');
      setApiKey('');
      setCollection('');
    }
  };

  return (
    <section className="bib-source-add" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('sources.addTitle')}</h3>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <RadioGroup<Kind>
          label={t('sources.kind')}
          value={kind}
          onChange={setKind}
          options={[
            { value: 'url', label: t('sources.kindUrl') },
            { value: 'zotero', label: t('sources.kindZotero') },
          ]}
        />
        <TextField
          label={t('sources.name')}
          name="title"
          value={title}
          onChange={setTitle}
          errors={errors.title}
        />
        {kind === 'url' ? (
          <TextField
            label={t('sources.url')}
            name="url"
            type="url"
            value={url}
            onChange={setUrl}
            errors={errors.url}
            placeholder="https://example.org/references.bib"
          />
        ) : (
          <>
            <RadioGroup<Library>
              label={t('sources.library')}
              value={library}
              onChange={setLibrary}
              options={[
                { value: 'user', label: t('sources.libraryUser') },
                { value: 'group', label: t('sources.libraryGroup') },
              ]}
            />
            <TextField
              label={t('sources.libraryId')}
              name="zotero_id"
              value={libraryId}
              onChange={setLibraryId}
              errors={errors.libraryId}
            />
            <TextField
              label={t('sources.apiKey')}
              name="zotero_key"
              type="password"
              autoComplete="off"
              value={apiKey}
              onChange={setApiKey}
            />
            <TextField
              label={t('sources.collection')}
              name="zotero_collection"
              value={collection}
              onChange={setCollection}
              errors={errors.collection}
            />
          </>
        )}
        <FieldErrors id={`${headingId}-refused`} errors={refused ? [refused] : []} />
        <div>
          <button type="submit" className="button button-primary" aria-disabled={disabled || undefined}>
            {busy ? t('sources.adding') : t('sources.add')}
          </button>
        </div>
      </form>
    </section>
  );
}
