import {
  FORMAT_MARKS,
  HEADING_NUMBERINGS,
  type HeadingNumbering,
  LATEX_CLASSES,
  type LatexClass,
  PAPER_SIZES,
  type PaperSize,
} from '@scriptorium/common/editor/vocabulary';
import {
  EXPORT_FILE_KINDS,
  type ExportFileEntry,
  type ExportFileKind,
  PART_KINDS,
  type TemplateDefinition,
  type TemplateEntry,
  type TemplatePartDefinition,
} from '@scriptorium/common/plugins/templates-api';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '../../components/form/select';
import { Page } from '../../components/page/page';
import { showToast } from '../../components/toast/toast-emitter';
import { ItemPending, useItemLoad } from '../shared/item-loading';
import { ReorderList } from '../shared/reorder-list';
import '../../plugins/shared/plugin-pages.css';
import { CheckList } from '../../components/form/check-list';
import { SubmitActions } from '../../components/form/submit-actions';
import { CSL_STYLES } from '../../pages/bibliography/csl/csl-assets';
import { DOCUMENT_LANGUAGES } from '../../pages/editor/editor-panels';
import { TitleField } from '../shared/title-field';
import { PartEditor } from './part-editor';
import { TemplatePreview } from './template-preview';
import { deleteExportFile, fetchTemplate, saveTemplate, uploadExportFile } from './templates-api';

export interface TemplateEditorPageProps {
  /** The template id: the third segment of /templates/{id}/. */
  id: string;
}

type PartKind = (typeof PART_KINDS)[number];

/** A new part of a kind, with an id not yet used in the template. */
function newPart(
  kind: PartKind,
  title: string,
  taken: readonly TemplatePartDefinition[],
): TemplatePartDefinition {
  let n = taken.length + 1;
  while (taken.some((part) => part.id === `part-${n}`)) n += 1;
  const rich = kind === 'richtext_part';
  return {
    id: `part-${n}`,
    kind,
    title,
    optional: false,
    hidden: false,
    elements: rich ? ['paragraph', 'bullet_list', 'ordered_list', 'footnote', 'hard_break', 'citation'] : [],
    marks: rich
      ? [...FORMAT_MARKS]
      : kind === 'heading_part'
        ? ['em', 'strong', 'sup', 'sub', 'smallcaps']
        : [],
    help: '',
    initial: '',
  };
}

const CSL_STYLE_IDS: readonly string[] = CSL_STYLES.map((style) => style.id);
const CSL_STYLE_LABELS = new Map<string, string>(CSL_STYLES.map((style) => [style.id, style.label]));

interface OfferedList {
  field: 'citation_styles' | 'languages';
  legend: string;
  values: readonly string[];
  label(value: string): string | undefined;
}

function toggled(list: readonly string[], value: string, on: boolean): string[] {
  return on ? [...list.filter((item) => item !== value), value] : list.filter((item) => item !== value);
}

/** Template editor (plugin, spec 2.1): the parts in order, what each allows, and a live preview. */
export function TemplateEditorPage({ id }: TemplateEditorPageProps) {
  const { t, i18n } = useTranslation(['templates', 'editor']);
  const numericId = /^\d+$/.test(id) ? Number(id) : null;
  const [template, setTemplate] = useState<TemplateEntry | null>(null);
  const [title, setTitle] = useState('');
  const [definition, setDefinition] = useState<TemplateDefinition | null>(null);
  const [files, setFiles] = useState<ExportFileEntry[]>([]);
  const [saving, setSaving] = useState(false);
  const [addKind, setAddKind] = useState<PartKind>('richtext_part');
  const formId = useId();
  const languageNames = useMemo(
    () => new Intl.DisplayNames([i18n.language], { type: 'language' }),
    [i18n.language],
  );
  // What a template offers its documents, each a list of boxes.
  const offered: readonly OfferedList[] = [
    {
      field: 'citation_styles',
      legend: t('citationStyles'),
      values: CSL_STYLE_IDS,
      label: (id) => CSL_STYLE_LABELS.get(id),
    },
    {
      field: 'languages',
      legend: t('languages'),
      values: DOCUMENT_LANGUAGES,
      label: (language) => languageNames.of(language) ?? language,
    },
  ];

  const missing = useItemLoad(numericId, fetchTemplate, (loaded) => {
    setTemplate(loaded);
    setTitle(loaded.title);
    setDefinition(loaded.definition);
    setFiles(loaded.files);
  });

  if (missing || !template || !definition || numericId === null)
    return <ItemPending ns="templates" missing={missing} heading={t('editorTitle')} />;

  const readOnly = !template.is_owner;
  const setParts = (parts: TemplatePartDefinition[]) => setDefinition({ ...definition, parts });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (definition.parts.some((part) => part.title.trim() === '')) {
      showToast(t('saveNeedsTitles'), 'error');
      return;
    }
    setSaving(true);
    try {
      await saveTemplate(numericId, title.trim(), definition);
      showToast(t('saved'), 'success');
    } catch {
      showToast(t('saveFailed'), 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Page heading={title || t('untitled')} title={`${title || t('untitled')} – ${t('title')}`}>
      {readOnly ? <p className="plugin-muted">{t('siteReadOnly')}</p> : null}
      <div className="split-layout plugin-editor">
        <form id={formId} onSubmit={(event) => void save(event)} aria-label={t('editorTitle')}>
          <fieldset className="plugin-section" disabled={readOnly}>
            <TitleField label={t('templateTitle')} value={title} onChange={setTitle} />
          </fieldset>

          <section className="plugin-section" aria-labelledby={`${formId}-parts`}>
            <h2 id={`${formId}-parts`}>{t('parts')}</h2>
            <p className="plugin-muted">{t('partsHelp')}</p>
            <ReorderList
              ns="templates"
              items={definition.parts}
              getKey={(part) => part.id}
              itemName={(part) => part.title}
              label={t('parts')}
              readOnly={readOnly}
              onReorder={setParts}
              renderItem={(part, index) => (
                <PartEditor
                  part={part}
                  readOnly={readOnly}
                  onChange={(changed) =>
                    setParts(definition.parts.map((p, i) => (i === index ? changed : p)))
                  }
                  onRemove={() => {
                    if (definition.parts.length === 1) {
                      showToast(t('lastPart'), 'error');
                      return;
                    }
                    setParts(definition.parts.filter((_, i) => i !== index));
                  }}
                />
              )}
            />
            {readOnly ? null : (
              <div className="wrap-row">
                <Select<PartKind>
                  inline
                  label={t('addPartKind')}
                  value={addKind}
                  options={PART_KINDS.map((kind) => ({ value: kind, label: t(`kinds.${kind}`) }))}
                  onChange={setAddKind}
                />
                <button
                  type="button"
                  className="button"
                  onClick={() =>
                    setParts([...definition.parts, newPart(addKind, t(`kinds.${addKind}`), definition.parts)])
                  }
                >
                  {t('addPart')}
                </button>
              </div>
            )}
          </section>

          {offered.map(({ field, legend, values, label }) => (
            <CheckList
              key={field}
              className="plugin-checks plugin-offered"
              disabled={readOnly}
              legend={legend}
              values={values}
              checked={definition[field]}
              onChange={(value, on) =>
                setDefinition({ ...definition, [field]: toggled(definition[field], value, on) })
              }
              label={label}
            />
          ))}
          <p className="plugin-muted">{t('offeredHelp')}</p>

          <fieldset className="plugin-section plugin-fields" disabled={readOnly}>
            <legend>{t('layout.heading')}</legend>
            <Select<HeadingNumbering>
              className="plugin-field"
              label={t('layout.headingNumbering')}
              value={definition.heading_numbering}
              options={HEADING_NUMBERINGS.map((value) => ({
                value,
                label: t(`editor:settings.numbering.${value}`),
              }))}
              onChange={(value) => setDefinition({ ...definition, heading_numbering: value })}
            />
            <Select<LatexClass>
              className="plugin-field"
              label={t('layout.latexClass')}
              value={definition.latex_class}
              options={LATEX_CLASSES.map((value) => ({ value, label: t(`layout.classes.${value}`) }))}
              onChange={(value) => setDefinition({ ...definition, latex_class: value })}
            />
            <Select<PaperSize>
              className="plugin-field"
              label={t('layout.paperSize')}
              value={definition.paper_size}
              options={PAPER_SIZES.map((value) => ({
                value,
                label: value === 'A4' ? t('editor:settings.a4') : t('editor:settings.letter'),
              }))}
              onChange={(value) => setDefinition({ ...definition, paper_size: value })}
            />
          </fieldset>

          {readOnly ? null : <SubmitActions label={t('save')} busy={saving} />}
        </form>
        <div>
          <TemplatePreview title={title} definition={definition} />
          <ExportFiles templateId={numericId} files={files} readOnly={readOnly} onChange={setFiles} />
        </div>
      </div>
    </Page>
  );
}

interface ExportFilesProps {
  templateId: number;
  files: ExportFileEntry[];
  readOnly: boolean;
  onChange(files: ExportFileEntry[]): void;
}

/** Export templates: DOCX and ODT reference documents the exporters format their output with. */
function ExportFiles({ templateId, files, readOnly, onChange }: ExportFilesProps) {
  const { t } = useTranslation('templates');
  const id = useId();
  const [kind, setKind] = useState<ExportFileKind>('docx');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    try {
      const stored = await uploadExportFile(templateId, kind, name.trim() || file.name, file);
      onChange([...files, stored]);
      setName('');
      setFile(null);
      (event.target as HTMLFormElement).reset();
      showToast(t('files.uploaded'), 'success');
    } catch {
      showToast(t('files.uploadFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const remove = async (entry: ExportFileEntry) => {
    try {
      await deleteExportFile(templateId, entry.id);
      onChange(files.filter((f) => f.id !== entry.id));
    } catch {
      showToast(t('files.deleteFailed'), 'error');
    }
  };

  return (
    <section className="plugin-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('files.heading')}</h2>
      {files.length === 0 ? <p className="plugin-muted">{t('files.none')}</p> : null}
      <ul>
        {files.map((entry) => (
          <li key={entry.id} className="wrap-row">
            <span>
              {entry.title} ({entry.kind.toUpperCase()})
            </span>
            {readOnly ? null : (
              <button
                type="button"
                className="button"
                aria-label={t('files.deleteNamed', { name: entry.title })}
                onClick={() => void remove(entry)}
              >
                {t('files.delete')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {readOnly ? null : (
        <form className="plugin-fields" onSubmit={(event) => void upload(event)}>
          <Select<ExportFileKind>
            className="plugin-field"
            label={t('files.kind')}
            value={kind}
            options={EXPORT_FILE_KINDS.map((k) => ({ value: k, label: k.toUpperCase() }))}
            onChange={setKind}
          />
          <TitleField label={t('files.title')} value={name} onChange={setName} />
          <div className="plugin-field">
            <label htmlFor={`${id}-file`}>{t('files.file')}</label>
            <input
              id={`${id}-file`}
              type="file"
              accept={kind === 'docx' ? '.docx' : '.odt'}
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="button" disabled={!file || busy}>
              {t('files.upload')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
