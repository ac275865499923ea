import { importBibliography } from '@scriptorium/common/bibliography/import-entries';
import type { BibEntry, EntryData } from '@scriptorium/common/bibliography/types';
import { insertCitation, selectedNode } from '@scriptorium/common/editor/academic-commands';
import {
  CITATION_FORMATS,
  type CitationFormat,
  type CitationReference,
} from '@scriptorium/common/editor/academic-nodes';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../../../components/form/select';
import { saveInChunks } from '../../../bibliography/bibliography-api';
import { entrySummary, matches, useLibrary } from './citation-library';
import { applyAndClose, type DialogProps, InsertDialog } from './shared';

/**
 * The citation picker: search the library by key, author, title and year while typing; pick one
 * or more entries, each with prefix and locator; author-date or textual form. Pasting BibTeX
 * imports the entries into the library and picks them.
 */
export function CitationDialog({
  view,
  onClose,
  replace,
}: DialogProps & { replace: { from: number; to: number } | null }) {
  const { t } = useTranslation('editor');
  const searchId = useId();
  const existing = selectedNode(view.state, 'citation');
  const { userId, library, failed, add } = useLibrary();
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<(CitationReference & { entry?: BibEntry })[]>(
    existing ? (existing.node.attrs.references as CitationReference[]).map((ref) => ({ ...ref })) : [],
  );
  const [format, setFormat] = useState<CitationFormat>(
    existing?.node.attrs.format === 'textcite' ? 'textcite' : 'autocite',
  );
  const [message, setMessage] = useState('');
  const [active, setActive] = useState(0);

  const found = useMemo(() => {
    const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
    return (library ?? []).filter((entry) => matches(entry, words)).slice(0, 50);
  }, [library, query]);
  const keyOf = (entry: BibEntry) => `${userId}-${entry.id}`;
  const pick = (entry: BibEntry) => {
    const id = keyOf(entry);
    if (picked.some((ref) => ref.id === id)) return;
    setPicked((list) => [...list, { id, prefix: '', locator: '', entry }]);
    setQuery('');
  };
  const paste = (text: string): boolean => {
    if (!/^\s*@\w+\s*[{(]/.test(text)) return false;
    const report = importBibliography(text);
    if (!report.entries.length) {
      setMessage(t('academic.citation.pasteFailed'));
      return true;
    }
    setMessage(t('academic.citation.importing'));
    saveInChunks(report.entries, () => undefined).then(
      ({ saved }) => {
        add(saved);
        setPicked((list) => [
          ...list,
          ...saved.map((entry) => ({ id: keyOf(entry), prefix: '', locator: '', entry })),
        ]);
        setMessage(t('academic.citation.imported', { count: saved.length }));
      },
      () => setMessage(t('academic.citation.importFailed')),
    );
    return true;
  };
  const known = useMemo(() => {
    const inDocument = new Map<string, EntryData>();
    view.state.doc.forEach((part) => {
      if (part.type.name === 'bibliography_part')
        part.forEach((entry) => {
          inDocument.set(String(entry.attrs.id), entry.attrs.data as EntryData);
        });
    });
    return inDocument;
  }, [view.state.doc]);
  const labelOf = (ref: CitationReference & { entry?: BibEntry }) => {
    const data = ref.entry ?? known.get(ref.id) ?? (library ?? []).find((entry) => keyOf(entry) === ref.id);
    if (!data) return ref.id;
    const { authors, title, year } = entrySummary(data);
    return [authors, year, title].filter(Boolean).join(' · ');
  };
  const submit = () => {
    if (!picked.length) return;
    const entries = new Map<string, EntryData>();
    for (const ref of picked) {
      const data = ref.entry ?? (library ?? []).find((entry) => keyOf(entry) === ref.id);
      if (data)
        entries.set(ref.id, {
          entry_key: data.entry_key,
          bib_type: data.bib_type,
          fields: data.fields,
          cats: [],
        });
    }
    const references = picked.map(({ id, prefix, locator }) => ({
      id,
      prefix: prefix.trim(),
      locator: locator.trim(),
    }));
    applyAndClose(
      view,
      onClose,
      insertCitation(format, references, entries, existing ? undefined : (replace ?? undefined)),
    );
  };
  return (
    <InsertDialog
      title={t('academic.citation.title')}
      onClose={onClose}
      width={640}
      updating={Boolean(existing)}
      onSubmit={submit}
      disabled={!picked.length}
      formClassName="academic-citation"
    >
      <label htmlFor={searchId}>{t('academic.citation.search')}</label>
      <input
        id={searchId}
        type="search"
        // biome-ignore lint/a11y/noAutofocus: a modal dialog's field (Biome exempts <dialog>, not FormDialog); the dialog would focus its close button first, typing is what the user came for.
        autoFocus
        value={query}
        placeholder={t('academic.citation.placeholder')}
        aria-controls={`${searchId}-list`}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onPaste={(event) => {
          if (paste(event.clipboardData.getData('text/plain'))) event.preventDefault();
        }}
        onDrop={(event) => {
          const text = event.dataTransfer.getData('text/plain');
          if (text && paste(text)) event.preventDefault();
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setActive((index) => Math.min(index + 1, found.length - 1));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((index) => Math.max(index - 1, 0));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            if (query && found[active]) pick(found[active]);
            else submit();
          }
        }}
      />
      {message ? <p role="status">{message}</p> : null}
      {failed ? <p role="alert">{t('academic.citation.libraryFailed')}</p> : null}
      {library && !library.length ? <p>{t('academic.citation.emptyLibrary')}</p> : null}
      <ul id={`${searchId}-list`} className="academic-results" aria-label={t('academic.citation.results')}>
        {found.map((entry, index) => {
          const { authors, title, year } = entrySummary(entry);
          return (
            <li key={entry.id}>
              <button
                type="button"
                className="academic-result"
                data-active={index === active}
                onClick={() => pick(entry)}
              >
                <strong>{authors || entry.entry_key}</strong> {year ? `(${year})` : ''} <span>{title}</span>{' '}
                <code>{entry.entry_key}</code>
              </button>
            </li>
          );
        })}
      </ul>
      {picked.length ? (
        <fieldset className="academic-picked">
          <legend>{t('academic.citation.picked')}</legend>
          {picked.map((ref, index) => (
            <div key={ref.id} className="academic-picked-row">
              <span className="academic-picked-label">{labelOf(ref)}</span>
              {(['prefix', 'locator'] as const).map((field) => (
                <input
                  key={field}
                  aria-label={t(`academic.citation.${field}`)}
                  placeholder={t(`academic.citation.${field}`)}
                  value={ref[field]}
                  onChange={(event) =>
                    setPicked((list) =>
                      list.map((r, i) => (i === index ? { ...r, [field]: event.target.value } : r)),
                    )
                  }
                />
              ))}
              <button
                type="button"
                className="button"
                aria-label={t('academic.citation.remove', { entry: labelOf(ref) })}
                onClick={() => setPicked((list) => list.filter((_, i) => i !== index))}
              >
                {t('academic.remove')}
              </button>
            </div>
          ))}
        </fieldset>
      ) : null}
      <Select<CitationFormat>
        label={t('academic.citation.format')}
        value={format}
        options={CITATION_FORMATS.map((f) => ({ value: f, label: t(`academic.citation.${f}`) }))}
        onChange={setFormat}
      />
    </InsertDialog>
  );
}
