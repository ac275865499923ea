import { importApi } from '@scriptorium/common/api/endpoints/imports';
import type { ImportResponse } from '@scriptorium/common/api/imports';
import { IMPORT_REFUSALS, type ImportNoteItem, MAX_IMPORT_BYTES } from '@scriptorium/common/import/problems';
import { documentUrl } from '@scriptorium/common/rules/paths';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { navigate } from '../../app/router/navigation';
import { Dialog, FormDialog } from '../../components/dialog/dialog';

/** What the file picker offers: Word, OpenDocument and our native zip. */
const ACCEPT =
  '.docx,.odt,.zip,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.oasis.opendocument.text,application/zip';

type Done = { id: number; path: string; title: string; notes: ImportNoteItem[] };

export interface ImportDialogProps {
  /** The folder the new document goes into ('' for the top). */
  folder: string;
  onClose(): void;
}

/**
 * New document > Import (issue 19): pick a file, watch it upload, read what could not be kept,
 * open the new document. A file over 50 MB is refused here, before any upload.
 */
export function ImportDialog({ folder, onClose }: ImportDialogProps) {
  const { t } = useTranslation('import');
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState<Done | null>(null);

  const choose = (picked: File | null) => {
    setError('');
    setFile(picked);
    if (picked && picked.size > MAX_IMPORT_BYTES) setError(t('refusals.too_large'));
  };

  const submit = async () => {
    if (!file) {
      setError(t('noFile'));
      return;
    }
    if (file.size > MAX_IMPORT_BYTES) {
      setError(t('refusals.too_large'));
      return;
    }
    setError('');
    setProgress(0);
    try {
      const answer = await call(
        importApi.document,
        { path: folder, file },
        { onUploadProgress: setProgress },
      );
      if ('error' in answer) setError(t(`refusals.${answer.code}`));
      else if (answer.notes.length === 0) navigate(documentUrl(answer.path, answer.id));
      else setDone(answer);
    } catch (failure) {
      const body =
        failure instanceof ApiError
          ? (failure.body as Partial<Extract<ImportResponse, { error: string }>>)
          : null;
      setError(
        body?.code && (IMPORT_REFUSALS as readonly string[]).includes(body.code)
          ? t(`refusals.${body.code}`)
          : t('failed'),
      );
    } finally {
      setProgress(null);
    }
  };

  if (done) {
    return (
      <Dialog
        title={t('reportTitle')}
        onClose={onClose}
        width={480}
        command={{ label: t('open'), onAction: () => navigate(documentUrl(done.path, done.id)) }}
      >
        <p role="status">{t('imported', { title: done.title })}</p>
        <ul className="import-report">
          {done.notes.map((note) => (
            <li key={`${note.code}-${note.detail}`}>
              {t(`notes.${note.code}`, { detail: note.detail })}
              {note.count > 1 ? ` ${t('times', { count: note.count })}` : ''}
            </li>
          ))}
        </ul>
      </Dialog>
    );
  }

  const busy = progress !== null;
  return (
    <FormDialog
      title={t('dialogTitle')}
      onClose={onClose}
      width={480}
      submitLabel={t('submit')}
      onSubmit={submit}
      busy={busy}
    >
      <div className="form-field">
        <label htmlFor={inputId}>{t('fileLabel')}</label>
        <input
          id={inputId}
          type="file"
          accept={ACCEPT}
          disabled={busy}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(event) => choose(event.target.files?.[0] ?? null)}
        />
      </div>
      {busy ? (
        <div className="import-progress">
          <progress max={1} value={progress < 1 ? progress : undefined} aria-label={t('progress')} />
          <span role="status">{progress < 1 ? t('uploading') : t('reading')}</span>
        </div>
      ) : null}
      {error ? (
        <p id={`${inputId}-error`} className="form-errors" role="alert">
          {error}
        </p>
      ) : null}
    </FormDialog>
  );
}
