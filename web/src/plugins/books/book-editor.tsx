import type { DocumentEntry } from '@scriptorium/common/api/documents';
import type { Image } from '@scriptorium/common/api/usermedia';
import { PAPER_SIZES, type PaperSize } from '@scriptorium/common/editor/schema';
import {
  BOOK_BIBLIOGRAPHY_PLACES,
  type BookChapter,
  type BookEntry,
  type BookMetadata,
  type BookSettings,
} from '@scriptorium/common/plugins/books-api';
import { documentUrl } from '@scriptorium/common/rules/paths';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../components/form/select';
import { Page } from '../../components/page/page';
import { Tabs } from '../../components/tabs/tabs';
import { showToast } from '../../components/toast/toast-emitter';
import { ItemPending, useItemLoad } from '../shared/item-loading';
import { ReorderList } from '../shared/reorder-list';
import '../../plugins/shared/plugin-pages.css';
import { SubmitActions } from '../../components/form/submit-actions';
import { CSL_STYLES } from '../../pages/bibliography/csl/csl-assets';
import { fetchDocuments } from '../../pages/documents/documents-api';
import { DOCUMENT_LANGUAGES } from '../../pages/editor/editor-panels';
import { fetchImages } from '../../pages/usermedia/usermedia-api';
import { TitleField } from '../shared/title-field';
import { BookExport } from './book-export';
import { BookShareDialog } from './book-share-dialog';
import { fetchBook, saveBook, saveChapters } from './books-api';

const METADATA_TEXTS = ['authors', 'publisher', 'isbn', 'copyright'] as const;

/** The book editor: title, metadata, settings, and the chapters in order (drag and drop or keys). */
export function BookEditor({ id }: { id: number }) {
  const { t, i18n } = useTranslation('books');
  const formId = useId();
  const [book, setBook] = useState<BookEntry | null>(null);
  const [title, setTitle] = useState('');
  const [metadata, setMetadata] = useState<BookMetadata | null>(null);
  const [settings, setSettings] = useState<BookSettings | null>(null);
  const [documents, setDocuments] = useState<DocumentEntry[]>([]);
  const [images, setImages] = useState<Image[]>([]);
  const [adding, setAdding] = useState('');
  const [sharing, setSharing] = useState(false);
  const [saving, setSaving] = useState(false);
  const languageNames = useMemo(
    () => new Intl.DisplayNames([i18n.language], { type: 'language' }),
    [i18n.language],
  );

  const missing = useItemLoad(id, fetchBook, (loaded) => {
    setBook(loaded);
    setTitle(loaded.title);
    setMetadata(loaded.metadata);
    setSettings(loaded.settings);
  });
  // What chapters and a cover can be chosen from (the editor is made again for another book).
  useEffect(() => {
    let live = true;
    fetchDocuments().then(
      (rows) => live && setDocuments(rows),
      () => undefined,
    );
    fetchImages().then(
      (answer) => live && setImages(answer.images),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  if (missing || !book || !metadata || !settings)
    return <ItemPending ns="books" missing={missing} heading={t('title')} />;

  const canWrite = book.is_owner || book.rights === 'write';
  const untitledDocument = t('untitledDocument');
  const chapterName = (chapter: BookChapter) =>
    chapter.available ? chapter.title || untitledDocument : t('chapterUnavailable');

  const storeChapters = async (chapters: BookChapter[]) => {
    const previous = book;
    // Shown at once; the server's answer (with titles of added chapters) replaces it.
    setBook({ ...book, chapters });
    try {
      setBook(
        await saveChapters(
          id,
          chapters.map(({ document_id, part }) => ({ document_id, part })),
        ),
      );
    } catch {
      setBook(previous);
      showToast(t('chaptersFailed'), 'error');
    }
  };

  const addChapter = () => {
    const doc = documents.find((entry) => String(entry.id) === adding);
    if (!doc) return;
    const last = book.chapters.at(-1);
    void storeChapters([
      ...book.chapters,
      { document_id: doc.id, part: last?.part ?? '', available: true, title: doc.title, path: doc.path },
    ]);
    setAdding('');
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await saveBook(id, title.trim(), metadata, settings);
      showToast(t('saved'), 'success');
    } catch {
      showToast(t('saveFailed'), 'error');
    } finally {
      setSaving(false);
    }
  };

  const inBook = new Set(book.chapters.map((chapter) => chapter.document_id));
  const addable = documents.filter((doc) => !inBook.has(doc.id));
  const cover = images.find((image) => image.id === metadata.cover_image);

  return (
    <Page heading={title || t('untitled')} title={`${title || t('untitled')} – ${t('title')}`}>
      <div className="wrap-row plugin-toolbar">
        {book.is_owner ? (
          <button type="button" className="button" onClick={() => setSharing(true)}>
            {t('share.button')}
          </button>
        ) : (
          <span className="plugin-muted">
            {t('sharedBy', { name: book.owner, right: t(`rights.${book.rights}`) })}
          </span>
        )}
      </div>
      <div className="split-layout plugin-editor">
        <div>
          <section className="plugin-section" aria-labelledby={`${formId}-chapters`}>
            <h2 id={`${formId}-chapters`}>{t('chapters')}</h2>
            {book.chapters.length === 0 ? <p className="plugin-muted">{t('noChapters')}</p> : null}
            <ReorderList
              ns="books"
              items={book.chapters}
              getKey={(chapter) => String(chapter.document_id)}
              itemName={chapterName}
              label={t('chapters')}
              readOnly={!canWrite}
              onReorder={(next) => void storeChapters(next)}
              renderItem={(chapter, index) => (
                <ChapterItem
                  chapter={chapter}
                  number={index + 1}
                  name={chapterName(chapter)}
                  readOnly={!canWrite}
                  onPart={(part) =>
                    void storeChapters(book.chapters.map((c, i) => (i === index ? { ...c, part } : c)))
                  }
                  onRemove={() => void storeChapters(book.chapters.filter((_, i) => i !== index))}
                />
              )}
            />
            {canWrite ? (
              <div className="wrap-row">
                <Select
                  inline
                  label={t('addChapterLabel')}
                  value={adding}
                  options={[
                    { value: '', label: t('chooseDocument') },
                    ...addable.map((doc) => ({
                      value: String(doc.id),
                      label: doc.title || untitledDocument,
                    })),
                  ]}
                  onChange={setAdding}
                />
                <button type="button" className="button" disabled={adding === ''} onClick={addChapter}>
                  {t('addChapter')}
                </button>
              </div>
            ) : null}
          </section>
          <BookExport bookId={id} chapters={book.chapters} />
        </div>

        <form onSubmit={(event) => void save(event)} aria-label={t('details')}>
          <fieldset className="plugin-section" disabled={!canWrite}>
            <legend className="visually-hidden">{t('details')}</legend>
            <TitleField label={t('bookTitle')} value={title} onChange={setTitle} />
            {/* What the book is, and how it is made: switched between, both sent by Save. */}
            <Tabs
              label={t('details')}
              keepMounted
              tabs={[
                {
                  id: 'metadata',
                  label: t('metadata'),
                  content: (
                    <div className="plugin-fields">
                      {METADATA_TEXTS.map((field) => (
                        <div className="plugin-field" key={field}>
                          <label htmlFor={`${formId}-${field}`}>{t(`fields.${field}`)}</label>
                          <input
                            id={`${formId}-${field}`}
                            value={metadata[field]}
                            onChange={(event) => setMetadata({ ...metadata, [field]: event.target.value })}
                          />
                        </div>
                      ))}
                      <Select
                        className="plugin-field"
                        label={t('fields.language')}
                        disabled={!canWrite}
                        value={metadata.language}
                        options={[
                          { value: '', label: t('fields.noLanguage') },
                          ...DOCUMENT_LANGUAGES.map((language) => ({
                            value: language,
                            label: languageNames.of(language) ?? language,
                          })),
                        ]}
                        onChange={(language) => setMetadata({ ...metadata, language })}
                      />
                      <div className="plugin-field">
                        <Select
                          label={t('fields.cover')}
                          disabled={!canWrite}
                          value={metadata.cover_image === null ? '' : String(metadata.cover_image)}
                          options={[
                            { value: '', label: t('fields.noCover') },
                            ...images.map((image) => ({ value: String(image.id), label: image.title })),
                          ]}
                          onChange={(value) =>
                            setMetadata({ ...metadata, cover_image: value ? Number(value) : null })
                          }
                        />
                        {cover ? (
                          <img src={cover.thumbnail} alt={cover.title} className="book-cover" width={80} />
                        ) : null}
                      </div>
                    </div>
                  ),
                },
                {
                  id: 'settings',
                  label: t('settings'),
                  content: (
                    <div className="plugin-fields">
                      <Select
                        className="plugin-field"
                        label={t('fields.citationStyle')}
                        disabled={!canWrite}
                        value={settings.citation_style}
                        options={[
                          { value: '', label: t('fields.defaultStyle') },
                          ...CSL_STYLES.map((style) => ({ value: style.id, label: style.label })),
                        ]}
                        onChange={(style) => setSettings({ ...settings, citation_style: style })}
                      />
                      <Select<PaperSize>
                        className="plugin-field"
                        label={t('fields.paperSize')}
                        disabled={!canWrite}
                        value={settings.paper_size}
                        options={PAPER_SIZES.map((size) => ({ value: size, label: size }))}
                        onChange={(size) => setSettings({ ...settings, paper_size: size })}
                      />
                      <Select<BookSettings['bibliography']>
                        className="plugin-field"
                        label={t('fields.bibliography')}
                        disabled={!canWrite}
                        value={settings.bibliography}
                        options={BOOK_BIBLIOGRAPHY_PLACES.map((place) => ({
                          value: place,
                          label: t(`fields.bibliographyPlaces.${place}`),
                        }))}
                        onChange={(place) => setSettings({ ...settings, bibliography: place })}
                      />
                    </div>
                  ),
                },
              ]}
            />
            {canWrite ? <SubmitActions label={t('save')} busy={saving} /> : null}
          </fieldset>
        </form>
      </div>
      {sharing ? (
        <BookShareDialog bookId={id} title={title || t('untitled')} onClose={() => setSharing(false)} />
      ) : null}
    </Page>
  );
}

interface ChapterItemProps {
  chapter: BookChapter;
  number: number;
  name: string;
  readOnly: boolean;
  onPart(part: string): void;
  onRemove(): void;
}

function ChapterItem({ chapter, number, name, readOnly, onPart, onRemove }: ChapterItemProps) {
  const { t } = useTranslation('books');
  const id = useId();
  const [part, setPart] = useState(chapter.part);
  useEffect(() => setPart(chapter.part), [chapter.part]);
  return (
    <div className="wrap-row">
      <span className="plugin-muted">{t('chapterNumber', { number })}</span>
      {chapter.available ? (
        <a href={documentUrl(chapter.path, chapter.document_id)}>{name}</a>
      ) : (
        <em>{name}</em>
      )}
      <label htmlFor={id} className="plugin-muted">
        {t('part')}
      </label>
      <input
        id={id}
        value={part}
        maxLength={255}
        readOnly={readOnly}
        onChange={(event) => setPart(event.target.value)}
        onBlur={() => {
          if (part.trim() !== chapter.part) onPart(part.trim());
        }}
      />
      {readOnly ? null : (
        <button
          type="button"
          className="button"
          aria-label={t('removeChapterNamed', { name })}
          onClick={onRemove}
        >
          {t('removeChapter')}
        </button>
      )}
    </div>
  );
}
