import type { ListStamp } from '@scriptorium/common/api/bibliography';
import type { ImportMessage } from '@scriptorium/common/bibliography/import-bibtex';
import type { ImportFormat, ImportReport } from '@scriptorium/common/bibliography/import-entries';
import type { BibEntry } from '@scriptorium/common/bibliography/types';
import { fieldTypeOf } from '@scriptorium/common/bibliography/validate';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog/dialog';
import { showToast } from '../../components/toast/toast';
import { InvalidEntriesError, saveInChunks } from './bibliography-api';
import { parseInWorkers } from './parse-in-workers';
import { useBibLabels } from './use-bib-labels';

type Phase =
  | { kind: 'choose' }
  /** fraction: the share of the file read, null while the reader has no steps to report. */
  | { kind: 'parsing'; fraction: number | null }
  | { kind: 'saving'; saved: number; total: number }
  | {
      kind: 'done';
      imported: number;
      messages: ImportMessage[];
      failed: boolean;
      format: ImportFormat | null;
    };

export interface ImportDialogProps {
  onClose(): void;
  onImported(entries: BibEntry[], stamp: ListStamp): void;
}

export function ImportDialog({ onClose, onImported }: ImportDialogProps) {
  const { t } = useTranslation('bibliography');
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const [pasted, setPasted] = useState('');
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const pasteId = useId();

  const run = async (text: string) => {
    if (!navigator.onLine) {
      showToast(t('offline'), 'error');
      return;
    }
    setPhase({ kind: 'parsing', fraction: null });
    let parsed: ImportReport;
    try {
      parsed = await parseInWorkers(text, (fraction) => setPhase({ kind: 'parsing', fraction }));
    } catch {
      setPhase({
        kind: 'done',
        imported: 0,
        messages: [{ level: 'error', code: 'unreadable', entry: null }],
        failed: true,
        format: null,
      });
      return;
    }
    const { format } = parsed;
    if (parsed.entries.length === 0) {
      setPhase({ kind: 'done', imported: 0, messages: parsed.messages, failed: true, format });
      return;
    }
    const total = parsed.entries.length;
    setPhase({ kind: 'saving', saved: 0, total });
    try {
      const { saved, first, last } = await saveInChunks(parsed.entries, (done) =>
        setPhase({ kind: 'saving', saved: done, total }),
      );
      if (first && last) {
        onImported(saved, {
          previous_last_modified: first.previous_last_modified,
          last_modified: last.last_modified,
          number_of_entries: last.number_of_entries,
        });
      }
      if (saved.length > 0) showToast(t('updated'), 'success');
      setPhase({ kind: 'done', imported: saved.length, messages: parsed.messages, failed: false, format });
    } catch (error) {
      const messages = [...parsed.messages];
      if (error instanceof InvalidEntriesError) {
        for (const p of error.answer.problems) {
          messages.push({ level: 'error', code: p.code, entry: p.entry_key, field: p.field ?? undefined });
        }
      }
      showToast(navigator.onLine ? t('notUpdated') : t('offline'), 'error');
      setPhase({ kind: 'done', imported: 0, messages, failed: true, format });
    }
  };

  const readFile = async (file: File) => run(await file.text());

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void readFile(file);
    else {
      const text = event.dataTransfer.getData('text/plain');
      if (text) void run(text);
    }
  };

  const busy = phase.kind === 'parsing' || phase.kind === 'saving';
  return (
    <Dialog
      title={t('importTitle')}
      onClose={() => {
        // Closing mid-save would leave the user unsure what was saved; the report says it.
        if (!busy) onClose();
      }}
      width={640}
      buttons={
        phase.kind === 'choose' ? (
          <>
            <button
              type="button"
              className="button button-primary"
              disabled={pasted.trim() === ''}
              onClick={() => void run(pasted)}
            >
              {t('importPasted')}
            </button>
            <button type="button" onClick={onClose}>
              {t('cancel')}
            </button>
          </>
        ) : (
          <button type="button" className="button button-primary" disabled={busy} onClick={onClose}>
            {t('close')}
          </button>
        )
      }
    >
      {phase.kind === 'choose' ? (
        <div className="bib-import">
          {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a mouse shortcut for the file button inside */}
          <div
            className={`bib-dropzone${dragging ? ' bib-dropzone-active' : ''}`}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <p>{t('dropHint')}</p>
            <button type="button" onClick={() => fileInput.current?.click()}>
              {t('chooseFile')}
            </button>
            <input
              ref={fileInput}
              type="file"
              accept=".bib,.bibtex,.biblatex,.json,.ris,.enw,.nbib,.txt"
              className="visually-hidden"
              data-testid="bib-file-input"
              aria-label={t('chooseFile')}
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) void readFile(file);
              }}
            />
            <p className="bib-hint">{t('formatsHint')}</p>
          </div>
          <label htmlFor={pasteId}>{t('pasteLabel')}</label>
          <textarea
            id={pasteId}
            rows={8}
            value={pasted}
            spellCheck={false}
            placeholder="@article{key, ...}"
            onChange={(event) => setPasted(event.target.value)}
          />
        </div>
      ) : null}
      {phase.kind === 'parsing' ? (
        <div role="status">
          <p>
            {phase.fraction === null
              ? t('parsing')
              : t('parsingPercent', { percent: Math.floor(phase.fraction * 100) })}
          </p>
          {/* Without a value the bar is indeterminate: the reader is working but cannot say how far. */}
          <progress
            className="bib-progress"
            max={1}
            value={phase.fraction ?? undefined}
            aria-label={t('progress')}
          />
        </div>
      ) : null}
      {phase.kind === 'saving' ? (
        <div role="status">
          <p>{t('saving', { saved: phase.saved, total: phase.total })}</p>
          <progress
            className="bib-progress"
            max={phase.total || 1}
            value={phase.saved}
            aria-label={t('progress')}
          />
        </div>
      ) : null}
      {phase.kind === 'done' ? <ReportView phase={phase} /> : null}
    </Dialog>
  );
}

function ReportView({ phase }: { phase: Extract<Phase, { kind: 'done' }> }) {
  const { t } = useTranslation('bibliography');
  const labels = useBibLabels();
  // A field of the model by its title; anything else (a RIS tag, a BibTeX field we do not know) as written.
  const fieldName = (field: string) =>
    fieldTypeOf(field) ? t(`field.${field}`, { defaultValue: labels.field('misc', field) }) : field;
  const errors = phase.messages.filter((m) => m.level === 'error');
  const warnings = phase.messages.filter((m) => m.level === 'warning');
  return (
    <div className="bib-report" role="status">
      <p className="bib-report-summary">
        {phase.failed ? t('importFailed') : t('imported', { count: phase.imported })}
        {phase.format ? ` ${t('readAs', { format: t(`format.${phase.format}`) })}` : null}
      </p>
      {errors.length + warnings.length > 0 ? (
        <ul className="bib-report-list">
          {[...errors, ...warnings].slice(0, 500).map((m, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the report never changes once shown
            <li key={index} className={`bib-report-${m.level}`}>
              <strong>{m.level === 'error' ? t('error') : t('warning')}</strong>{' '}
              {m.entry ? <code>{m.entry}</code> : null}{' '}
              {t(`problem.${m.code}`, {
                defaultValue: t('problem.other', { code: m.code }),
                format:
                  m.code === 'unsupported_format' ? t(`format.${m.value}`, { defaultValue: m.value }) : '',
                // What the message is about: a TeX command, a CSL type, a missing @xdata key.
                value: m.value ?? '',
              })}
              {m.field ? ` (${fieldName(m.field)})` : ''}
              {m.line ? ` ${t('line', { line: m.line })}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
