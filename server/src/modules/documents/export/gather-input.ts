import { readFile } from 'node:fs/promises';
import type { ImageType } from '@scriptorium/common/api/usermedia';
import type { EngineCache } from '@scriptorium/common/bibliography/cluster-render';
import type { ExportImage, ExportInput } from '@scriptorium/common/export/model';
import type { AppContext } from '../../../context';
import { pluginExportReference } from '../../../plugins/registry';
import { canReadMediaFile } from '../../usermedia/policies';
import { imagePath } from '../../usermedia/storage';
import { readThreads, visibleThread } from '../collab/review';
import { currentContent } from '../collab/store';
import type { VisibleDocument } from '../queries';
import { loadCsl } from './csl-files';

/**
 * What the exporters need of one document, read for one user: the latest content, the comment
 * threads this user may see, the images of the figures this user may read, and the citation style.
 */

const MEDIA_SRC = /^\/media\/images\/([0-9a-f]{64})\.(png|jpg|webp|avif|gif|svg)$/;

/** citeproc engines kept between exports (building one for a large style costs seconds). */
export const exportEngines = new Map<string, { current?: EngineCache; key: string }>();

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

/** The latest content of a document and the images of its figures this user may read. */
export async function gatherDocumentContent(
  ctx: AppContext,
  userId: number,
  documentId: number,
): Promise<Pick<ExportInput, 'content' | 'images'>> {
  const text = await currentContent(ctx.db, documentId);
  const content = JSON.parse(text ?? 'null') as unknown;
  const images: Record<string, ExportImage> = {};
  for (const src of figureSources(content)) {
    const match = MEDIA_SRC.exec(src);
    if (!match) continue;
    const access = await canReadMediaFile(ctx.db, userId, match[1]);
    if (!access) continue;
    // A file missing on disk: the figure keeps its caption.
    const image = await readImageFile(ctx.config.dataDir, match[1], access.fileType);
    if (image) images[src] = image;
  }
  return { content, images };
}

export async function gatherExportInput(
  ctx: AppContext,
  userId: number,
  document: VisibleDocument,
): Promise<ExportInput> {
  const { content, images } = await gatherDocumentContent(ctx, userId, document.id);
  const attrs = (
    content as { attrs?: { citationstyle?: string; language?: string; template?: string } } | null
  )?.attrs;
  const viewer = { userId, right: document.rights ?? ('write' as const), ownerId: document.owner_id };
  const threads = (await readThreads(ctx.db, document.id)).flatMap(
    (thread) => visibleThread(thread, viewer) ?? [],
  );
  const csl = await loadCsl(attrs?.citationstyle ?? 'apa', attrs?.language ?? 'en-US');
  // A stored template's reference documents (Templates plugin) style the DOCX and ODT.
  const reference = attrs?.template
    ? await pluginExportReference(ctx, document.owner_id, attrs.template)
    : null;
  return { content, threads, images, csl, ...(reference ? { reference } : {}) };
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
