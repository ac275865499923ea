import {
  fileTypeLabel,
  IMAGE_ACCEPT_ATTRIBUTE,
  type Image,
  type ImageCategory,
  type ImageCopyright,
  type ImageLicence,
} from '@scriptorium/common/api/usermedia';
import { X } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CategoryChecks } from '../../components/categories-dialog/category-checks';
import { Dialog } from '../../components/dialog/dialog';
import { Form } from '../../components/form/form';
import { LabelledInput } from '../../components/form/labelled-input';
import { Select } from '../../components/form/select';
import { showToast } from '../../components/toast/toast';
import { LICENCE_CHOICES, licenceLabel } from './licence-options';
import { type ImageFields, saveErrorMessage, updateImage, uploadImage } from './usermedia-api';

type UploadStatus = 'waiting' | 'uploading' | 'done' | 'error';

interface PendingFile {
  key: number;
  file: File;
  title: string;
  progress: number;
  status: UploadStatus;
  error?: string;
}

export type ImageDialogMode = { kind: 'new'; files: File[] } | { kind: 'edit'; image: Image };

export interface ImageDialogProps {
  mode: ImageDialogMode;
  categories: ImageCategory[];
  online: boolean;
  onClose(): void;
  /** After any image was stored or changed: the page reloads its list. */
  onSaved(): void;
}

let nextKey = 1;

function pendingFrom(files: File[]): PendingFile[] {
  return files.map((file) => ({
    key: nextKey++,
    file,
    // The file name without its extension is a better start than an empty title.
    title: file.name.replace(/\.[^.]+$/, ''),
    progress: 0,
    status: 'waiting',
  }));
}

/** Files dragged in from the desktop; text or links dragged from a page carry none. */
export function droppedFiles(event: DragEvent): File[] {
  return Array.from(event.dataTransfer?.files ?? []);
}

/**
 * The image dialog: for new images a drop zone and file chooser (one or many files, each with
 * its title and a progress bar), for an existing image its preview; for both the categories,
 * the copyright holder and the licence.
 */
export function ImageDialog({ mode, categories, online, onClose, onSaved }: ImageDialogProps) {
  const { t } = useTranslation('usermedia');
  const formId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const existing = mode.kind === 'edit' ? mode.image : null;
  const [files, setFiles] = useState<PendingFile[]>(() =>
    mode.kind === 'new' ? pendingFrom(mode.files) : [],
  );
  const [title, setTitle] = useState(existing?.title ?? '');
  const [cats, setCats] = useState<number[]>(existing?.cats ?? []);
  const [holder, setHolder] = useState(existing?.copyright.holder ?? '');
  const [licence, setLicence] = useState<ImageLicence>(existing?.copyright.licence ?? '');
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);

  const copyright = (): ImageCopyright => ({ holder: holder.trim(), licence });
  const addFiles = (list: File[]) => {
    if (list.length > 0) setFiles((current) => [...current, ...pendingFrom(list)]);
  };
  const patch = (key: number, change: Partial<PendingFile>) =>
    setFiles((current) => current.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));

  const uploadAll = async () => {
    const queue = files.filter((entry) => entry.status === 'waiting' || entry.status === 'error');
    if (queue.length === 0) return;
    if (!online) {
      showToast(t('offline'), 'error');
      return;
    }
    setBusy(true);
    let stored = 0;
    let failed = 0;
    // One after the other: each bar moves in turn, and a large batch does not flood the server.
    for (const entry of queue) {
      patch(entry.key, { status: 'uploading', progress: 0, error: undefined });
      const fields: ImageFields = { title: entry.title.trim(), cats, copyright: copyright() };
      try {
        await uploadImage(entry.file, fields, (progress) => patch(entry.key, { progress }));
        patch(entry.key, { status: 'done', progress: 1 });
        stored += 1;
      } catch (error) {
        const message = saveErrorMessage(error, t);
        patch(entry.key, { status: 'error', error: message });
        showToast(message, 'error');
        failed += 1;
      }
    }
    setBusy(false);
    if (stored > 0) onSaved();
    if (failed === 0) onClose();
  };

  const saveExisting = async (image: Image) => {
    setBusy(true);
    try {
      await updateImage(image.id, { title: title.trim(), cats, copyright: copyright() });
      onSaved();
      onClose();
    } catch (error) {
      showToast(saveErrorMessage(error, t), 'error');
      setBusy(false);
    }
  };

  const submit = () => {
    if (busy) return;
    if (existing) void saveExisting(existing);
    else void uploadAll();
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    addFiles(droppedFiles(event));
  };

  const waiting = files.some((entry) => entry.status === 'waiting' || entry.status === 'error');

  return (
    <Dialog
      title={existing ? t('editDialogTitle') : t('uploadDialogTitle')}
      onClose={onClose}
      width={560}
      buttons={
        <>
          <button
            type="submit"
            form={formId}
            className="button button-primary"
            disabled={busy || (!existing && (!waiting || !online))}
          >
            {existing ? t('save') : t('upload')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </>
      }
    >
      <Form id={formId} className="form usermedia-image-form" onSubmit={submit}>
        {existing ? (
          <div className="usermedia-preview">
            <img src={existing.thumbnail} alt="" />
            <span>
              {t('fileInfo', {
                type: fileTypeLabel(existing.file_type),
                width: existing.width,
                height: existing.height,
              })}
            </span>
          </div>
        ) : (
          <>
            {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop zone is for the mouse; the button in it is the keyboard path */}
            <div
              className={`usermedia-dropzone${dragging ? ' usermedia-dropzone-active' : ''}`}
              data-testid="usermedia-dropzone"
              onDragEnter={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragOver={(event) => event.preventDefault()}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
            >
              <p>{t('dropZone')}</p>
              <button
                type="button"
                className="button"
                onClick={() => fileInput.current?.click()}
                disabled={busy}
              >
                {t('chooseFiles')}
              </button>
              <p className="usermedia-hint">{t('dropZoneHint')}</p>
              <input
                ref={fileInput}
                type="file"
                multiple
                accept={IMAGE_ACCEPT_ATTRIBUTE}
                className="visually-hidden"
                tabIndex={-1}
                aria-hidden="true"
                data-testid="usermedia-file-input"
                onChange={(event) => {
                  addFiles(Array.from(event.target.files ?? []));
                  event.target.value = '';
                }}
              />
            </div>
            {files.length === 0 ? (
              <p className="usermedia-hint">{t('noFilesChosen')}</p>
            ) : (
              <ul className="usermedia-upload-list">
                {files.map((entry) => (
                  <li key={entry.key} className={`usermedia-upload usermedia-upload-${entry.status}`}>
                    <input
                      type="text"
                      value={entry.title}
                      aria-label={t('fieldTitleOf', { name: entry.file.name })}
                      placeholder={t('fieldTitle')}
                      maxLength={255}
                      disabled={entry.status === 'done' || entry.status === 'uploading'}
                      onChange={(event) => patch(entry.key, { title: event.target.value })}
                    />
                    <progress
                      max={1}
                      value={entry.progress}
                      aria-label={t('uploadProgress', { name: entry.file.name })}
                    />
                    <span className="usermedia-upload-state">
                      {entry.status === 'done'
                        ? t('uploadDone')
                        : entry.status === 'waiting'
                          ? t('uploadWaiting')
                          : entry.status === 'uploading'
                            ? `${Math.round(entry.progress * 100)} %`
                            : ''}
                    </span>
                    {entry.status === 'waiting' || entry.status === 'error' ? (
                      <button
                        type="button"
                        className="icon-button"
                        aria-label={t('removeFile', { name: entry.file.name })}
                        disabled={busy}
                        onClick={() =>
                          setFiles((current) => current.filter((item) => item.key !== entry.key))
                        }
                      >
                        <X aria-hidden="true" />
                      </button>
                    ) : null}
                    {entry.error ? (
                      <p className="field-errors usermedia-upload-error" role="alert">
                        {entry.error}
                      </p>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        {existing ? (
          <LabelledInput label={t('fieldTitle')} value={title} maxLength={255} onChange={setTitle} />
        ) : null}
        <CategoryChecks
          legend={t('fieldCategories')}
          categories={categories}
          checked={cats}
          onChange={setCats}
          empty={t('noCategories')}
          className={{
            fieldset: 'form-field check-fieldset usermedia-categories',
            label: 'form-field-inline',
            empty: 'usermedia-hint',
          }}
        />
        <LabelledInput
          label={t('fieldCopyrightHolder')}
          value={holder}
          maxLength={300}
          onChange={setHolder}
        />
        <Select<ImageLicence>
          className="form-field"
          label={t('fieldLicence')}
          value={licence}
          options={LICENCE_CHOICES.map((choice) => ({ value: choice, label: licenceLabel(choice, t) }))}
          onChange={setLicence}
        />
      </Form>
    </Dialog>
  );
}
