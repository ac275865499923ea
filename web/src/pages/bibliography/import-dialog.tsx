import type { ListStamp } from '@scriptorium/common/api/bibliography';
import {
  type ImportMessage,
  type ImportResult,
  mergeParts,
  splitForParallelParse,
} from '@scriptorium/common/bibliography/import-bibtex';
import type { BibEntry } from '@scriptorium/common/bibliography/types';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog/dialog';
import { showToast } from '../../components/toast/toast';
import { InvalidEntriesError, saveInChunks } from './bibliography-api';

type Phase =
  | { kind: 'choose' }
  | { kind: 'parsing' }
  | { kind: 'saving'; saved: number; total: number }
  | { kind: 'done'; imported: number; messages: ImportMessage[]; failed: boolean };

export interface ImportDialogProps {
  onClose(): void;
  onImported(entries: BibEntry[], stamp: ListStamp): void;
}

/** Parses in a Web Worker: a 10,000-entry file must not freeze the page. */
function parseInWorker(text: string): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (
      event: MessageEvent<{ ok: true; result: ImportResult } | { ok: false; message: string }>,
    ) => {
      worker.terminate();
      if (event.data.ok) resolve(event.data.result);
      else reject(new Error(event.data.message));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message));
    };
    worker.postMessage({ text });
  });
}

/** Large BibTeX files are parsed in parts on several cores at once (see splitForParallelParse). */
async function parseFile(text: string): Promise<ImportResult> {
  const cores = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) return parseInWorker(text);
  const parts = splitForParallelParse(text, cores);
  if (parts.length === 1) return parseInWorker(parts[0].text);
  return mergeParts(await Promise.all(parts.map((part) => parseInWorker(part.text))), parts);
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
    setPhase({ kind: 'parsing' });
    let parsed: ImportResult;
    try {
      parsed = await parseFile(text);
    } catch {
      setPhase({
        kind: 'done',
        imported: 0,
        messages: [{ level: 'error', code: 'unreadable', entry: null }],
        failed: true,
      });
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
      setPhase({ kind: 'done', imported: saved.length, messages: parsed.messages, failed: false });
    } catch (error) {
      const messages = [...parsed.messages];
      if (error instanceof InvalidEntriesError) {
        for (const p of error.answer.problems) {
          messages.push({ level: 'error', code: p.code, entry: p.entry_key, field: p.field ?? undefined });
        }
      }
      showToast(navigator.onLine ? t('notUpdated') : t('offline'), 'error');
      setPhase({ kind: 'done', imported: 0, messages, failed: true });
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
              className="button-primary"
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
          <button type="button" className="button-primary" disabled={busy} onClick={onClose}>
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
              accept=".bib,.bibtex,.biblatex,.json,.txt"
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
      {phase.kind === 'parsing' ? <p role="status">{t('parsing')}</p> : null}
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
      {phase.kind === 'done' ? <ImportReport phase={phase} /> : null}
    </Dialog>
  );
}

function ImportReport({ phase }: { phase: Extract<Phase, { kind: 'done' }> }) {
  const { t } = useTranslation('bibliography');
  const errors = phase.messages.filter((m) => m.level === 'error');
  const warnings = phase.messages.filter((m) => m.level === 'warning');
  return (
    <div className="bib-report" role="status">
      <p className="bib-report-summary">
        {phase.failed ? t('importFailed') : t('imported', { count: phase.imported })}
      </p>
      {errors.length + warnings.length > 0 ? (
        <ul className="bib-report-list">
          {[...errors, ...warnings].slice(0, 500).map((m, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the report never changes once shown
            <li key={index} className={`bib-report-${m.level}`}>
              <strong>{m.level === 'error' ? t('error') : t('warning')}</strong>{' '}
              {m.entry ? <code>{m.entry}</code> : null}{' '}
              {t(`problem.${m.code}`, { defaultValue: t('problem.other', { code: m.code }) })}
              {m.field ? ` (${m.field})` : ''}
              {m.line ? ` ${t('line', { line: m.line })}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
