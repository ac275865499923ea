import type { EngineCache } from '../bibliography/cluster-render';
import { exportDocx } from './docx';
import { exportEpub } from './epub';
import { exportHtml } from './html';
import { exportJats } from './jats';
import { exportLatex } from './latex';
import { exportMarkdown } from './markdown';
import { type ExportInput, type PreparedDocument, prepareDocument } from './model';
import { exportNativeFile } from './native';
import { exportOdt, ODT_MIME } from './odt';
import { fileBaseName } from './text';

/**
 * Every export format, once: adding a format is one line here. `build` is pure (browser, also
 * offline, and server run the same code); PDF is the exception that needs a browser to lay out
 * pages and is made by the server (pdf in server/src/modules/export) or the print dialog.
 */
export interface ExportFormat {
  /** File extension of the download. */
  extension: string;
  mime: string;
  /** The format shows the text as it reads once every suggestion is accepted (prepared so). */
  accepted?: boolean;
  build(prepared: PreparedDocument): Uint8Array | Promise<Uint8Array>;
}

export const EXPORT_FORMATS = {
  docx: {
    extension: 'docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    build: exportDocx,
  },
  odt: { extension: 'odt', mime: ODT_MIME, build: exportOdt },
  html: { extension: 'zip', mime: 'application/zip', build: exportHtml },
  latex: { extension: 'zip', mime: 'application/zip', accepted: true, build: exportLatex },
  jats: { extension: 'zip', mime: 'application/zip', accepted: true, build: exportJats },
  epub: { extension: 'epub', mime: 'application/epub+zip', accepted: true, build: exportEpub },
  /** Pandoc's Markdown with the cited entries in its YAML header (`pandoc --citeproc` reads it). */
  markdown: { extension: 'md', mime: 'text/markdown; charset=utf-8', accepted: true, build: exportMarkdown },
  /** Scriptorium's own zip: the backup and transfer format that imports back identically. */
  native: { extension: 'zip', mime: 'application/zip', build: exportNativeFile },
} satisfies Record<string, ExportFormat>;

export type ExportFormatName = keyof typeof EXPORT_FORMATS;

export function isExportFormat(name: string): name is ExportFormatName {
  return Object.hasOwn(EXPORT_FORMATS, name);
}

export interface ExportedFile {
  name: string;
  mime: string;
  data: Uint8Array;
}

/** Runs one format on the input: the file with its name from the document's title. */
export async function exportDocument(
  format: ExportFormatName,
  input: ExportInput,
  engines?: Map<string, { current?: EngineCache; key: string }>,
): Promise<ExportedFile> {
  const spec: ExportFormat = EXPORT_FORMATS[format];
  const prepared = prepareDocument(input, engines, { accepted: spec.accepted });
  const data = await spec.build(prepared);
  return { name: `${fileBaseName(prepared.title)}.${spec.extension}`, mime: spec.mime, data };
}
