import { readFile } from 'node:fs/promises';
import type { ImageType } from '@scriptorium/common/api/usermedia';
import type { ExportImage, ExportInput } from '@scriptorium/common/export/model';
import type { AppContext } from '../../../context';
import { canReadMediaFile } from '../../usermedia/policies';
import { imagePath } from '../../usermedia/storage';
import { readThreads, visibleThread } from '../collab/review';
import { currentContent, readSteps } from '../collab/store';
import type { VisibleDocument } from '../queries';
import type { DocumentExportInput } from './export-worker';
import { exportReferenceFor } from './reference-sources';

/**
 * What the exporters need of one document, read for one user: the latest content, the comment
 * threads this user may see, the images of the figures this user may read, and the citation style.
 */

const MEDIA_SRC = /^\/media\/images\/([0-9a-f]{64})\.(png|jpg|webp|avif|gif|svg)$/;

/**
 * The figures' sources found in the content's JSON text without parsing it (that is the export
 * worker's work): every `"src":"/media/images/..."`. Text that merely looks like one can only
 * name an image the reader may read anyway, and the writers take the figures' images only.
 */
const MEDIA_SRC_IN_JSON = /"src"\s*:\s*"(\/media\/images\/[0-9a-f]{64}\.(?:png|jpg|webp|avif|gif|svg))"/g;

function figureSources(content: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const {
      type,
      attrs,
      content: children,
    } = node as { type?: string; attrs?: { src?: unknown }; content?: unknown[] };
    if (type === 'figure' && typeof attrs?.src === 'string' && attrs.src) found.add(attrs.src);
    if (Array.isArray(children)) for (const child of children) walk(child);
  };
  walk(content);
  return [...found];
}

/** An image file of the library as the exporters take it; null when it is missing on disk. */
export async function readImageFile(
  dataDir: string,
  sha256: string,
  fileType: string,
): Promise<ExportImage | null> {
  try {
    const data = await readFile(imagePath(dataDir, sha256, fileType as ImageType));
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), type: fileType };
  } catch {
    return null;
  }
}

/** The images of these sources that the user may read, as the exporters take them. */
async function readableImages(
  ctx: AppContext,
  userId: number,
  sources: Iterable<string>,
): Promise<Record<string, ExportImage>> {
  const images: Record<string, ExportImage> = {};
  for (const src of sources) {
    const match = MEDIA_SRC.exec(src);
    if (!match) continue;
    const access = await canReadMediaFile(ctx.db, userId, match[1]);
    if (!access) continue;
    // A file missing on disk: the figure keeps its caption.
    const image = await readImageFile(ctx.config.dataDir, match[1], access.fileType);
    if (image) images[src] = image;
  }
  return images;
}

/** The latest content of a document and the images of its figures this user may read. */
export async function gatherDocumentContent(
  ctx: AppContext,
  userId: number,
  documentId: number,
): Promise<Pick<ExportInput, 'content' | 'images'>> {
  const text = await currentContent(ctx.db, documentId);
  const content = JSON.parse(text ?? 'null') as unknown;
  return { content, images: await readableImages(ctx, userId, figureSources(content)) };
}

/**
 * What the export worker needs of one document for one reader: the stored snapshot and the steps
 * after it (the worker applies them and parses; a document of 5,000 citations took tens of
 * milliseconds of this thread to parse and write out again), the threads this user may see, the
 * images of the figures this user may read, and a stored template's reference documents. The
 * worker reads the citation style and language from the document itself.
 */
export async function gatherExportInput(
  ctx: AppContext,
  userId: number,
  document: VisibleDocument,
): Promise<DocumentExportInput> {
  const row = await ctx.db
    .selectFrom('documents')
    .select(['content', 'content_version'])
    .where('id', '=', document.id)
    .executeTakeFirstOrThrow();
  const steps = (await readSteps(ctx.db, document.id, row.content_version)).map((stored) => stored.step);
  const sources = new Set(
    [row.content, ...steps.map((step) => JSON.stringify(step))].flatMap((text) =>
      [...text.matchAll(MEDIA_SRC_IN_JSON)].map((match) => match[1]),
    ),
  );
  const images = await readableImages(ctx, userId, sources);
  const viewer = { userId, right: document.rights ?? ('write' as const), ownerId: document.owner_id };
  const threads = (await readThreads(ctx.db, document.id)).flatMap(
    (thread) => visibleThread(thread, viewer) ?? [],
  );
  // The template as of the last step that set it, else the snapshot's.
  let template = documentAttributes(row.content).template;
  for (const step of steps as { stepType?: string; attr?: string; value?: unknown }[])
    if (step.stepType === 'docAttr' && step.attr === 'template') template = step.value;
  // A stored template's reference documents (Templates plugin) style the DOCX and ODT.
  const reference =
    typeof template === 'string' && template
      ? await exportReferenceFor(ctx, document.owner_id, template)
      : null;
  return {
    source: { snapshot: row.content, steps },
    threads,
    images,
    ...(reference ? { reference } : {}),
  };
}

/**
 * The document's own attributes without parsing all of its JSON: our JSON writes them first. Any
 * other shape is parsed whole; text that is no JSON has none.
 */
export function documentAttributes(text: string): Record<string, unknown> {
  const start = /^\{\s*"type"\s*:\s*"doc"\s*,\s*"attrs"\s*:\s*\{/.exec(text);
  if (start) {
    let inString = false;
    for (let at = start[0].length, depth = 1; at < text.length; at++) {
      const char = text[at];
      if (inString) {
        if (char === '\\') at++;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === '{') depth++;
      else if (char === '}' && --depth === 0) {
        try {
          return JSON.parse(text.slice(start[0].length - 1, at + 1)) as Record<string, unknown>;
        } catch {
          break;
        }
      }
    }
  }
  try {
    const parsed = JSON.parse(text) as { attrs?: Record<string, unknown> } | null;
    return parsed?.attrs ?? {};
  } catch {
    return {};
  }
}

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266 / RFC 5987). */
export function attachmentHeader(name: string): string {
  const dot = name.lastIndexOf('.');
  const toAscii = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '')
      .trim();
  const ascii = `${toAscii(name.slice(0, dot)) || 'document'}${name.slice(dot)}`;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
