import type { Image } from '@scriptorium/common/api/usermedia';
import { importBibliography } from '@scriptorium/common/bibliography/import-entries';
import type { BibEntry, EntryData } from '@scriptorium/common/bibliography/types';
import {
  insertCitation,
  insertCrossReference,
  insertDisplayEquation,
  insertEquation,
  insertFigure,
  libraryUpdates,
  replaceInBibliography,
  selectedNode,
  setCitationStyle,
  setTableCaption,
} from '@scriptorium/common/editor/academic-commands';
import { renderLatex } from '@scriptorium/common/editor/academic-math';
import {
  CITATION_FORMATS,
  type CitationFormat,
  type CitationReference,
  FIGURE_ALIGNMENTS,
  FIGURE_CATEGORIES,
  type FigureAlignment,
  type FigureCategory,
} from '@scriptorium/common/editor/academic-nodes';
import { numberDocument } from '@scriptorium/common/editor/academic-numbering';
import { type Command, NodeSelection } from 'prosemirror-state';
import { isInTable } from 'prosemirror-tables';
import type { EditorView } from 'prosemirror-view';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../app/configuration/app-context';
import { Dialog, FormDialog, type FormDialogProps } from '../../../components/dialog/dialog';
import { Select } from '../../../components/form/select';
import { loadLibrary, saveInChunks } from '../../bibliography/bibliography-api';
import { CSL_STYLES } from '../../bibliography/csl/csl-assets';
import { StyleFinder } from '../../bibliography/style-finder';
import { fetchImages, saveErrorMessage, uploadImage } from '../../usermedia/usermedia-api';
import { DoneDialog } from '../editor-panels';
import type { AcademicPanelId } from './academic-actions';
import { brokenReferences } from './academic-plugin';

/** Runs the command on the editor, closes the dialog and gives the text the focus back. */
function applyAndClose(view: EditorView, onClose: () => void, command: Command) {
  command(view.state, view.dispatch);
  onClose();
  view.focus();
}

/** A dialog around the form of something the editor inserts, or updates when it is selected. */
function InsertDialog({
  updating,
  formClassName,
  ...dialog
}: Omit<FormDialogProps, 'submitLabel'> & { updating: boolean; formClassName: string }) {
  const { t } = useTranslation('editor');
  return (
    <FormDialog
      {...dialog}
      submitLabel={updating ? t('academic.update') : t('academic.insert')}
      formClassName={`editor-form ${formClassName}`}
    />
  );
}

/** A dialog listing things to pick, one button each (or the `empty` text when there are none). */
function PickDialog({
  title,
  onClose,
  width,
  items,
  className,
  empty,
}: {
  title: string;
  onClose(): void;
  width: number;
  items: { key: string; content: ReactNode; pick(): void }[];
  className: string;
  empty: string;
}) {
  return (
    <Dialog title={title} onClose={onClose} width={width}>
      {items.length ? (
        <ul className="academic-targets">
          {items.map((item) => (
            <li key={item.key}>
              <button type="button" className={`button ${className}`} onClick={item.pick}>
                {item.content}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>{empty}</p>
      )}
    </Dialog>
  );
}

interface DialogProps {
  view: EditorView;
  onClose(): void;
}

/** The LaTeX rendered live under the field; errors in red with Temml's message. */
function MathPreview({ latex, display }: { latex: string; display: boolean }) {
  const { t } = useTranslation('editor');
  const ref = useRef<HTMLDivElement>(null);
  const result = renderLatex(latex, display);
  useEffect(() => {
    if (ref.current && result.ok) ref.current.innerHTML = result.mathml;
  }, [result]);
  if (!latex.trim()) return <p className="editor-help">{t('academic.math.empty')}</p>;
  if (!result.ok)
    return (
      <p className="doc-math-error" role="alert">
        {t('academic.math.error', { error: result.error })}
      </p>
    );
  return <div ref={ref} className="academic-math-preview" data-testid="math-preview" />;
}

interface MathFieldElement extends HTMLElement {
  value: string;
}

/**
 * Mod-e: MathLive's visual math field (with its virtual keyboard) beside the LaTeX source; either
 * edits the other. MathLive is loaded only when the dialog opens (it is large); the source field
 * works without it.
 */
export function MathDialog({ view, onClose, display }: DialogProps & { display: boolean }) {
  const { t } = useTranslation('editor');
  const selectedFigure = selectedNode(view.state, 'figure');
  const figure = selectedFigure?.node.attrs.category === 'equation' ? selectedFigure : null;
  const inline = selectedNode(view.state, 'equation');
  const initial = String(inline?.node.attrs.equation ?? figure?.node.attrs.equation ?? '');
  const isDisplay = figure ? true : inline ? false : display;
  const [latex, setLatex] = useState(initial);
  const [ready, setReady] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const field = useRef<MathFieldElement | null>(null);
  const sourceId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the field is made once; later changes flow through its value
  useEffect(() => {
    let live = true;
    import('mathlive')
      .then((mathlive) => {
        if (!live || !host.current) return;
        // No web fonts or sounds fetched from elsewhere: the bundle serves neither.
        mathlive.MathfieldElement.fontsDirectory = null;
        mathlive.MathfieldElement.soundsDirectory = null;
        const element = document.createElement('math-field') as MathFieldElement;
        element.setAttribute('aria-label', t('academic.math.visual'));
        element.className = 'academic-math-field';
        element.value = latex;
        element.addEventListener('input', () => setLatex(element.value));
        host.current.replaceChildren(element);
        field.current = element;
        setReady(true);
      })
      .catch(() => setReady(false));
    return () => {
      live = false;
    };
  }, []);

  const fromSource = (value: string) => {
    setLatex(value);
    if (field.current && field.current.value !== value) field.current.value = value;
  };
  const submit = () => {
    const value = latex.trim();
    if (!value) return;
    applyAndClose(view, onClose, figure || isDisplay ? insertDisplayEquation(value) : insertEquation(value));
  };
  return (
    <InsertDialog
      title={isDisplay ? t('academic.math.displayTitle') : t('academic.math.title')}
      onClose={onClose}
      width={560}
      updating={Boolean(initial)}
      onSubmit={submit}
      disabled={!latex.trim()}
      formClassName="academic-math"
    >
      <div ref={host} className="academic-math-host" data-ready={ready} />
      <label htmlFor={sourceId}>{t('academic.math.source')}</label>
      <textarea
        id={sourceId}
        className="academic-math-source"
        value={latex}
        rows={3}
        spellCheck={false}
        onChange={(event) => fromSource(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <MathPreview latex={latex} display={isDisplay} />
    </InsertDialog>
  );
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join(' ');
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.text === 'string') return record.text;
    return Object.values(record).map(textOf).join(' ');
  }
  return value === undefined || value === null ? '' : String(value);
}

/** Author, title and year of an entry as plain text, for the picker's list and its search. */
export function entrySummary(entry: EntryData): { authors: string; title: string; year: string } {
  const fields = entry.fields as Record<string, unknown>;
  const names = Array.isArray(fields.author)
    ? fields.author
    : Array.isArray(fields.editor)
      ? fields.editor
      : [];
  const authors = names
    .map((name) => {
      const record = name as Record<string, unknown>;
      return textOf(record.family ?? record.literal ?? record);
    })
    .join(', ');
  const year = /\d{4}/.exec(String(fields.date ?? ''))?.[0] ?? '';
  return { authors, title: textOf(fields.title), year };
}

function matches(entry: BibEntry, words: string[]): boolean {
  if (!words.length) return true;
  const { authors, title, year } = entrySummary(entry);
  const haystack = `${entry.entry_key} ${authors} ${title} ${year}`.toLocaleLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** The current user's library (the cached copy first, then the server's), or failed. */
function useLibrary(): {
  userId: number;
  library: BibEntry[] | null;
  failed: boolean;
  add(entries: BibEntry[]): void;
} {
  const user = useCurrentUser();
  const userId = user?.id ?? 0;
  const [library, setLibrary] = useState<BibEntry[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadLibrary(userId, (cached) => live && setLibrary(cached.entries)).then(
      (loaded) => live && setLibrary(loaded.entries),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [userId]);
  const add = (entries: BibEntry[]) => setLibrary((list) => [...(list ?? []), ...entries]);
  return { userId, library, failed, add };
}

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

/** Images of the library with search and categories; caption, category, alignment and width. */
export function FigureDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const { t: tMedia } = useTranslation('usermedia');
  const existing = selectedNode(view.state, 'figure');
  const [images, setImages] = useState<Image[] | null>(null);
  const [categories, setCategories] = useState<{ id: number; category_title: string }[]>([]);
  const [failed, setFailed] = useState(false);
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState(0);
  const [chosen, setChosen] = useState<{ id: number; src: string } | null>(
    existing?.node.attrs.src
      ? { id: Number(existing.node.attrs.image), src: String(existing.node.attrs.src) }
      : null,
  );
  const [caption, setCaption] = useState(String(existing?.node.attrs.caption ?? ''));
  const [figureCategory, setFigureCategory] = useState<FigureCategory>(
    (existing?.node.attrs.category as FigureCategory) ?? 'figure',
  );
  const [aligned, setAligned] = useState<FigureAlignment>(
    (existing?.node.attrs.aligned as FigureAlignment) ?? 'center',
  );
  const [width, setWidth] = useState(Number(existing?.node.attrs.width ?? 100));
  // Upload from the picker: the new image joins the library (no categories, no copyright yet;
  // the image library edits those) and is chosen at once.
  const fileInput = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<{ name: string; sent: number } | { error: string } | null>(null);
  const uploadFile = async (file: File) => {
    setUpload({ name: file.name, sent: 0 });
    try {
      const image = await uploadImage(
        file,
        { title: file.name.replace(/\.[^.]+$/, ''), cats: [], copyright: { holder: '', licence: '' } },
        (sent) => setUpload({ name: file.name, sent }),
      );
      setImages((list) => [image, ...(list ?? []).filter((other) => other.id !== image.id)]);
      setQuery('');
      setCategory(0);
      setChosen({ id: image.id, src: image.image });
      setUpload(null);
    } catch (error) {
      setUpload({ error: saveErrorMessage(error, tMedia) });
    }
  };
  const ids = {
    search: useId(),
    caption: useId(),
  };

  useEffect(() => {
    let live = true;
    fetchImages().then(
      (answer) => {
        if (!live) return;
        setImages(answer.images);
        setCategories(answer.imageCategories);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const shown = (images ?? []).filter(
    (image) =>
      (!category || image.cats.includes(category)) &&
      words.every((word) => image.title.toLocaleLowerCase().includes(word)),
  );
  const submit = () => {
    if (!chosen && figureCategory !== 'equation') return;
    applyAndClose(
      view,
      onClose,
      insertFigure({
        category: figureCategory,
        image: chosen?.id ?? 0,
        src: chosen?.src ?? '',
        caption: caption.trim(),
        aligned,
        width,
      }),
    );
  };
  return (
    <InsertDialog
      title={t('academic.figure.title')}
      onClose={onClose}
      width={720}
      updating={Boolean(existing)}
      onSubmit={submit}
      disabled={!chosen}
      formClassName="academic-figure"
    >
      <div className="academic-figure-filters">
        <div className="editor-field">
          <label htmlFor={ids.search}>{t('academic.figure.search')}</label>
          <input
            id={ids.search}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        <Select
          label={t('academic.figure.library')}
          value={String(category)}
          options={[
            { value: '0', label: t('academic.figure.allCategories') },
            ...categories.map((cat) => ({ value: String(cat.id), label: cat.category_title })),
          ]}
          onChange={(value) => setCategory(Number(value))}
        />
      </div>
      {failed ? <p role="alert">{t('academic.figure.failed')}</p> : null}
      {images && !images.length ? <p>{t('academic.figure.empty')}</p> : null}
      <div className="academic-figure-upload">
        <button
          type="button"
          className="button"
          disabled={upload !== null && 'sent' in upload}
          onClick={() => fileInput.current?.click()}
        >
          {t('academic.figure.upload')}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="image/*"
          hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void uploadFile(file);
          }}
        />
        <span role="status">
          {upload && 'sent' in upload
            ? t('academic.figure.uploading', { name: upload.name, percent: Math.round(upload.sent * 100) })
            : null}
        </span>
        {upload && 'error' in upload ? <p role="alert">{upload.error}</p> : null}
      </div>
      <div className="academic-images" role="radiogroup" aria-label={t('academic.figure.images')}>
        {shown.map((image) => (
          <label key={image.id} className="academic-image" data-chosen={chosen?.id === image.id}>
            <input
              type="radio"
              name="figure-image"
              checked={chosen?.id === image.id}
              onChange={() => setChosen({ id: image.id, src: image.image })}
            />
            <img src={image.thumbnail} alt="" />
            <span>{image.title || t('academic.figure.untitled')}</span>
          </label>
        ))}
      </div>
      <label htmlFor={ids.caption}>{t('academic.figure.caption')}</label>
      <input id={ids.caption} value={caption} onChange={(event) => setCaption(event.target.value)} />
      <div className="academic-figure-options">
        <Select<FigureCategory>
          label={t('academic.figure.category')}
          value={figureCategory}
          options={FIGURE_CATEGORIES.filter((c) => c !== 'equation').map((c) => ({
            value: c,
            label: t(`academic.category.${c}`),
          }))}
          onChange={setFigureCategory}
        />
        <Select<FigureAlignment>
          label={t('academic.figure.aligned')}
          value={aligned}
          options={FIGURE_ALIGNMENTS.map((a) => ({ value: a, label: t(`academic.align.${a}`) }))}
          onChange={setAligned}
        />
        <Select
          label={t('academic.figure.width')}
          value={String(width)}
          options={[25, 50, 75, 100].map((w) => ({ value: String(w), label: `${w} %` }))}
          onChange={(value) => setWidth(Number(value))}
        />
      </div>
    </InsertDialog>
  );
}

/** Lists every heading, figure, table and equation; the reference shows the target's live number. */
export function CrossReferenceDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const targets = numberDocument(view.state.doc).targets;
  return (
    <PickDialog
      title={t('academic.crossReference.title')}
      onClose={onClose}
      width={520}
      items={targets.map((target) => ({
        key: target.id,
        content: (
          <>
            <strong>{target.label}</strong> <span>{target.text}</span>
          </>
        ),
        pick: () => applyAndClose(view, onClose, insertCrossReference(target.id, target.label)),
      }))}
      className="academic-target"
      empty={t('academic.crossReference.empty')}
    />
  );
}

export function TableCaptionDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const inTable = isInTable(view.state);
  const id = useId();
  const current = useMemo(() => {
    const { $from } = view.state.selection;
    for (let depth = $from.depth; depth > 0; depth--)
      if ($from.node(depth).type.name === 'table') return String($from.node(depth).attrs.caption);
    return '';
  }, [view.state]);
  const [caption, setCaption] = useState(current);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    applyAndClose(view, onClose, setTableCaption(caption.trim()));
  };
  return (
    <Dialog
      title={t('academic.tableCaption.title')}
      onClose={onClose}
      width={420}
      buttons={
        inTable ? (
          <button type="submit" form={`${id}-form`} className="button button-primary">
            {t('academic.update')}
          </button>
        ) : undefined
      }
    >
      {inTable ? (
        <form id={`${id}-form`} className="editor-form" onSubmit={submit}>
          <label htmlFor={id}>{t('academic.tableCaption.caption')}</label>
          <input id={id} autoFocus value={caption} onChange={(event) => setCaption(event.target.value)} />
        </form>
      ) : (
        <p>{t('academic.tableCaption.notInTable')}</p>
      )}
    </Dialog>
  );
}

/** The document's citation style: the common ones, or any of the catalogue by search. */
export function CitationStyleDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const [style, setStyle] = useState(String(view.state.doc.attrs.citationstyle));
  const choose = (value: string) => {
    setStyle(value);
    setCitationStyle(value)(view.state, view.dispatch);
  };
  const listed = CSL_STYLES.some((s) => s.id === style);
  return (
    <DoneDialog title={t('academic.style.title')} onClose={onClose} width={520}>
      <Select
        label={t('academic.style.style')}
        value={style}
        options={[
          ...(listed ? [] : [{ value: style, label: style }]),
          ...CSL_STYLES.map((s) => ({ value: s.id, label: s.label })),
        ]}
        onChange={choose}
      />
      <StyleFinder onChoose={(found) => choose(found.id)} />
    </DoneDialog>
  );
}

/** Tools: cross-references whose target was deleted; choosing one selects it in the text. */
export function BrokenReferencesDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const broken = brokenReferences(view.state);
  const select =
    (pos: number): Command =>
    (state, dispatch) => {
      dispatch?.(state.tr.setSelection(NodeSelection.create(state.doc, pos)).scrollIntoView());
      return true;
    };
  return (
    <PickDialog
      title={t('academic.broken.title')}
      onClose={onClose}
      width={480}
      items={broken.map((ref) => ({
        key: String(ref.pos),
        content: t('academic.broken.item', { title: ref.title || ref.id }),
        pick: () => applyAndClose(view, onClose, select(ref.pos)),
      }))}
      className="doc-missing"
      empty={t('academic.broken.none')}
    />
  );
}

/**
 * File > Update bibliography from library: the document's copies of the user's own entries take
 * the library's current data (co-authors' entries stay; spec: only on request).
 */
export function UpdateFromLibraryDialog({ view, onClose }: DialogProps) {
  const { t } = useTranslation('editor');
  const { userId, library, failed } = useLibrary();
  const [updated, setUpdated] = useState<number | null>(null);
  const updates = useMemo(
    () => (library ? libraryUpdates(view.state.doc, userId, library) : null),
    [library, userId, view.state.doc],
  );
  const update = () => {
    if (!updates?.size) return;
    view.dispatch(replaceInBibliography(view.state.tr, updates));
    setUpdated(updates.size);
  };
  const pending = updated === null && updates && updates.size > 0;
  let message: string;
  if (failed) message = t('academic.fromLibrary.failed');
  else if (updated !== null) message = t('academic.fromLibrary.updated', { count: updated });
  else if (!updates) message = t('academic.fromLibrary.loading');
  else if (!updates.size) message = t('academic.fromLibrary.none');
  else message = t('academic.fromLibrary.differ', { count: updates.size });
  return (
    <Dialog
      title={t('academic.fromLibrary.title')}
      onClose={onClose}
      width={480}
      buttons={
        <>
          <button type="button" className="button" onClick={onClose}>
            {pending ? t('academic.cancel') : t('settings.done')}
          </button>
          {pending ? (
            <button type="button" className="button button-primary" onClick={update}>
              {t('academic.update')}
            </button>
          ) : null}
        </>
      }
    >
      <p role={failed ? 'alert' : 'status'}>{message}</p>
    </Dialog>
  );
}

/** The dialog of an academic panel. */
export function AcademicDialog({
  panel,
  view,
  onClose,
  citationAt,
}: DialogProps & { panel: AcademicPanelId; citationAt: { from: number; to: number } | null }) {
  switch (panel) {
    case 'math':
      return <MathDialog view={view} onClose={onClose} display={false} />;
    case 'displayMath':
      return <MathDialog view={view} onClose={onClose} display />;
    case 'citation':
      return <CitationDialog view={view} onClose={onClose} replace={citationAt} />;
    case 'figure':
      return <FigureDialog view={view} onClose={onClose} />;
    case 'crossReference':
      return <CrossReferenceDialog view={view} onClose={onClose} />;
    case 'tableCaption':
      return <TableCaptionDialog view={view} onClose={onClose} />;
    case 'citationStyle':
      return <CitationStyleDialog view={view} onClose={onClose} />;
    case 'brokenReferences':
      return <BrokenReferencesDialog view={view} onClose={onClose} />;
    case 'updateFromLibrary':
      return <UpdateFromLibraryDialog view={view} onClose={onClose} />;
  }
}
