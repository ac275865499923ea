import type { Image } from '@scriptorium/common/api/usermedia';
import type { v1ContentRequest } from '@scriptorium/common/api/v1';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import { bodyContentSteps, citedIds, wholeDocumentSteps } from '@scriptorium/common/editor/body-content';
import { schema } from '@scriptorium/common/editor/schema';
import { Fragment, type Node as PMNode } from 'prosemirror-model';
import type { Step } from 'prosemirror-transform';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { HttpError } from '../../http/errors';
import { runExportTask } from '../documents/export/export-pool';
import { asHeavyTask } from '../documents/export/heavy-work';
import { listImages } from '../usermedia/commands/list-images';
import { entryData, listCslEntries } from './bibliography';

/** What a content request becomes: a change for commitServerChange, and what it could not place. */
export interface ContentChange {
  steps: (doc: PMNode) => Step[];
  unknownCitations: string[];
  unknownImages: string[];
}

function invalidContent(): HttpError {
  return new HttpError(400, { error: 'invalid_content', message: { key: 'errors.invalidContent' } });
}

/** ProseMirror JSON text: a whole document (type doc) or an array of blocks. */
function parseJsonContent(text: string): PMNode | Fragment {
  try {
    const json = JSON.parse(text) as unknown;
    if (Array.isArray(json)) {
      const blocks = json.map((block) => schema.nodeFromJSON(block));
      if (!blocks.length || blocks.some((block) => !block.isBlock || block.type.name.endsWith('_part')))
        throw invalidContent();
      for (const block of blocks) block.check();
      return Fragment.from(blocks);
    }
    const doc = schema.nodeFromJSON(json);
    if (doc.type.name !== 'doc') throw invalidContent();
    doc.check();
    return doc;
  } catch (error) {
    throw error instanceof HttpError ? error : invalidContent();
  }
}

/**
 * Reads a content request of the public API: Markdown (its `[@key]` citations looked up among the
 * user's bibliography keys, its images among the user's library images) or ProseMirror JSON.
 */
export async function contentChange(
  ctx: AppContext,
  userId: number,
  input: z.infer<typeof v1ContentRequest>,
): Promise<ContentChange> {
  if ((input.markdown === undefined) === (input.content === undefined)) throw invalidContent();
  if (input.content !== undefined) {
    const parsed = parseJsonContent(input.content);
    if (parsed instanceof Fragment)
      return { steps: (doc) => bodySteps(doc, parsed, input.mode), unknownCitations: [], unknownImages: [] };
    if (input.mode !== 'replace') throw invalidContent();
    return { steps: (doc) => wholeDocumentSteps(doc, parsed), unknownCitations: [], unknownImages: [] };
  }
  // Citation ids are `<user>-<entry id>`, as the editor's picker makes them.
  const rows = new Map((await listCslEntries(ctx, userId)).map((row) => [`${userId}-${row.id}`, row]));
  const citations: Record<string, string> = {};
  for (const [id, row] of rows) citations[row.entry_key] ??= id;
  const { images } = JSON.parse(await listImages(ctx, { id: userId })) as { images: Image[] };
  const bySrc = Object.fromEntries(
    images.map((image) => [image.image, { image: image.id, src: image.image }]),
  );
  // Parsing grows with the text: in the export pool, under the user's limit of heavy tasks.
  const made = await asHeavyTask(ctx.config, userId, () =>
    runExportTask(ctx.config, {
      kind: 'markdown-blocks',
      markdown: input.markdown ?? '',
      citations,
      images: bySrc,
    }),
  );
  if (made.kind !== 'markdown-blocks') throw new Error(`unexpected result ${made.kind}`);
  const read = {
    content: Fragment.fromJSON(schema, made.content),
    unknownCitations: made.unknownCitations,
    unknownImages: made.unknownImages,
  };
  const entries = new Map<string, EntryData>();
  for (const id of citedIds(read.content)) {
    const row = rows.get(id);
    if (row) entries.set(id, entryData(row));
  }
  return {
    steps: (doc) => bodySteps(doc, read.content, input.mode, entries),
    unknownCitations: read.unknownCitations,
    unknownImages: read.unknownImages,
  };
}

function bodySteps(
  doc: PMNode,
  blocks: Fragment,
  mode: 'append' | 'replace',
  entries?: ReadonlyMap<string, EntryData>,
): Step[] {
  const steps = bodyContentSteps(doc, blocks, mode, entries);
  if (!steps) throw invalidContent();
  return steps;
}
