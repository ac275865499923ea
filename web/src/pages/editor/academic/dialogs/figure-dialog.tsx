import type { Image } from '@scriptorium/common/api/usermedia';
import { insertFigure, selectedNode } from '@scriptorium/common/editor/academic-commands';
import {
  FIGURE_ALIGNMENTS,
  FIGURE_CATEGORIES,
  type FigureAlignment,
  type FigureCategory,
} from '@scriptorium/common/editor/academic-nodes';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../../../components/form/select';
import { fetchImages, saveErrorMessage, uploadImage } from '../../../usermedia/usermedia-api';
import { applyAndClose, type DialogProps, InsertDialog } from './shared';

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
