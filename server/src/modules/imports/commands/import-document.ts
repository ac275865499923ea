import { TITLE_MAX } from '@scriptorium/common/api/documents';
import type { ImageType } from '@scriptorium/common/api/usermedia';
import { TakenEntryKeys } from '@scriptorium/common/bibliography/entry-key';
import { schema } from '@scriptorium/common/editor/schema';
import { withTitleCut } from '@scriptorium/common/editor/templates';
import type { Language } from '@scriptorium/common/i18n/languages';
import { figureImageKey, type ImportedDocument } from '@scriptorium/common/import/model';
import type { ImportNoteItem } from '@scriptorium/common/import/problems';
import { ImportRefused } from '@scriptorium/common/import/problems';
import type { Transaction as KyselyTransaction } from 'kysely';
import type { Node as PMNode } from 'prosemirror-model';
import type { AppContext } from '../../../context';
import type { Database } from '../../../db/schema';
import { translator } from '../../../i18n/translate';
import { lockOwnerState, touchOwnerState } from '../../bibliography/queries';
import { insertThread } from '../../documents/collab/review';
import { createDocument } from '../../documents/commands/create-document';
import { runUploadTask, UploadBudgetExceeded } from '../../uploads/worker-pool';
import { ImageRejected } from '../../usermedia/image-rejected';
import type { PreparedImage } from '../../usermedia/prepare-image';
import { imageUrl } from '../../usermedia/presenters';
import { findOwnImageByHash, touchImageState } from '../../usermedia/queries';
import { makeThumbnail, prepareImageInWorker, storeImageFiles } from '../../usermedia/storage';
import { removeFilesIfUnused } from '../../usermedia/unused-files';

/**
 * New document > Import: the file is read in the upload worker pool (common/src/import), its
 * images are checked and stored like uploads of the image library, then the document, its
 * library images, its bibliography entries, its comment threads and the image rights of the
 * document are written in one transaction. A failure leaves nothing behind (image files written
 * for it are removed again unless another image uses them).
 */

export interface ImportOutcome {
  id: number;
  path: string;
  title: string;
  notes: ImportNoteItem[];
  images: number;
  entries: number;
}

async function readInWorker(ctx: AppContext, bytes: Uint8Array, name: string): Promise<ImportedDocument> {
  let result: Awaited<ReturnType<typeof runUploadTask>>;
  try {
    result = await runUploadTask(ctx.config, { kind: 'document', bytes, name });
  } catch (error) {
    // Out of time or memory while inflating or reading: a file we do not take, whatever its size.
    if (error instanceof UploadBudgetExceeded) throw new ImportRefused('over_budget');
    throw error;
  }
  if (result.ok && result.kind === 'document') {
    if (result.imported) return result.imported;
    throw new ImportRefused(result.refusal ?? 'corrupt');
  }
  throw new ImportRefused('corrupt');
}

type Json = Record<string, unknown>;

/** What the rewrite needs besides the stored images and entries. */
interface RewriteContext {
  images: Map<string, { id: number; src: string } | null>;
  keys: Map<string, string>;
  /** The visible text standing in for a figure whose image the library refused (named by key). */
  refusedImage(key: string): Json;
}

/** Rows per INSERT of the imported bibliography (as the bibliography's own save does). */
const ENTRY_INSERT_BATCH = 200;

/** Rewrites placeholders in the content: figures' images, citation and bibliography keys. */
function rewrite(node: Json, context: RewriteContext): Json {
  const { images, keys } = context;
  const attrs = node.attrs as Json | undefined;
  if (node.type === 'figure' && attrs) {
    const key = figureImageKey(attrs);
    if (key !== null) {
      const image = images.get(key);
      // An image the library refused: a paragraph naming it stands where the figure was (the report
      // says why), so that no table cell or part is left empty, which the schema does not allow.
      if (image === null) return context.refusedImage(key);
      // An image the file did not carry (e.g. one the exporting user could not read): the figure
      // stays with its caption, without an image.
      if (image === undefined) return { ...node, attrs: { ...attrs, image: 0, src: '' } };
      return { ...node, attrs: { ...attrs, image: image.id, src: image.src } };
    }
  }
  if (node.type === 'bib_entry' && attrs)
    return { ...node, attrs: { ...attrs, id: keys.get(String(attrs.id)) ?? attrs.id } };
  if (node.type === 'citation' && attrs) {
    const references = (attrs.references as Json[]).map((ref) => ({
      ...ref,
      id: keys.get(String(ref.id)) ?? ref.id,
    }));
    return { ...node, attrs: { ...attrs, references } };
  }
  if (!Array.isArray(node.content)) return node;
  return { ...node, content: (node.content as Json[]).map((child) => rewrite(child, context)) };
}

/**
 * The content to store, checked before the commit: a document of the schema (or the import is
 * refused as damaged), with a title doc_data takes (a longer one is cut).
 */
function storableContent(content: Json): PMNode {
  let doc: PMNode;
  try {
    doc = schema.nodeFromJSON(content);
    doc.check();
  } catch (error) {
    throw new ImportRefused('corrupt', error instanceof Error ? error.message : String(error));
  }
  return withTitleCut(doc, TITLE_MAX);
}

async function insertImages(
  trx: KyselyTransaction<Database>,
  ownerId: number,
  prepared: Map<string, { image: PreparedImage; name: string } | null>,
): Promise<Map<string, { id: number; src: string } | null>> {
  const out = new Map<string, { id: number; src: string } | null>();
  for (const [key, entry] of prepared) {
    if (!entry) {
      out.set(key, null);
      continue;
    }
    const { image, name } = entry;
    const existing = await findOwnImageByHash(trx, ownerId, image.sha256);
    const id =
      existing?.id ??
      (
        await trx
          .insertInto('usermedia_images')
          .values({
            owner_id: ownerId,
            title: name.slice(0, TITLE_MAX),
            sha256: image.sha256,
            file_type: image.fileType,
            width: image.width,
            height: image.height,
            size: image.bytes.length,
            copyright_holder: '',
            licence: '',
            added: Date.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    out.set(key, { id, src: imageUrl({ sha256: image.sha256, file_type: image.fileType as ImageType }) });
  }
  if (prepared.size) await touchImageState(trx, ownerId);
  return out;
}

async function insertEntries(
  trx: KyselyTransaction<Database>,
  ownerId: number,
  imported: ImportedDocument,
): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  if (!imported.bibliography.length) return keys;
  // Loaded when first needed: an idle server does not hold biblatex-csl-converter.
  const { validateEntry } = await import('@scriptorium/common/bibliography/validate');
  const before = await lockOwnerState(trx, ownerId);
  const rows = await trx
    .selectFrom('bib_entries')
    .select('entry_key_lower')
    .where('owner_id', '=', ownerId)
    .execute();
  const taken = new TakenEntryKeys(rows.map((row) => row.entry_key_lower));
  const now = Date.now();
  const values = imported.bibliography.flatMap(({ key, data }) => {
    if (validateEntry(data).length) return [];
    const entryKey = taken.claim(data.entry_key);
    return [
      {
        key,
        row: {
          owner_id: ownerId,
          entry_key: entryKey,
          entry_key_lower: entryKey.toLowerCase(),
          bib_type: data.bib_type,
          fields: JSON.stringify(data.fields),
          // The library's categories are the user's own: an imported entry starts in none.
          cats: '[]',
          created_at: now,
          updated_at: now,
        },
      },
    ];
  });
  // In batches: a file citing 10,000 works was 10,000 statements, each a turn of the event loop.
  for (let start = 0; start < values.length; start += ENTRY_INSERT_BATCH) {
    const batch = values.slice(start, start + ENTRY_INSERT_BATCH);
    const inserted = await trx
      .insertInto('bib_entries')
      .values(batch.map((entry) => entry.row))
      .returning(['id', 'entry_key_lower'])
      .execute();
    // Matched by key (unique per owner), not by position: RETURNING order is not promised.
    const idByKey = new Map(inserted.map((row) => [row.entry_key_lower, row.id]));
    for (const entry of batch) keys.set(entry.key, `${ownerId}-${idByKey.get(entry.row.entry_key_lower)}`);
  }
  await touchOwnerState(trx, ownerId, before);
  return keys;
}

export async function importDocumentFile(
  ctx: AppContext,
  user: { id: number; name: string; language: Language },
  input: { file: { bytes: Uint8Array; name: string }; path: string },
): Promise<ImportOutcome> {
  const { file, path } = input;
  const imported = await readInWorker(ctx, file.bytes, file.name);
  const notes = [...imported.notes];
  // Images the figures use, checked and stored like library uploads (files before rows).
  const used = new Set<string>();
  const collect = (node: Json) => {
    if (node.type === 'figure' && node.attrs) {
      const key = figureImageKey(node.attrs as Json);
      if (key !== null) used.add(key);
    }
    if (Array.isArray(node.content)) for (const child of node.content as Json[]) collect(child);
  };
  collect(imported.content);
  const prepared = new Map<string, { image: PreparedImage; name: string } | null>();
  for (const image of imported.images) {
    if (!used.has(image.key)) continue;
    try {
      const ready = await prepareImageInWorker(ctx.config, Buffer.from(image.bytes));
      await storeImageFiles(ctx.config.dataDir, ready);
      prepared.set(image.key, { image: ready, name: image.name });
    } catch (error) {
      if (!(error instanceof ImageRejected)) throw error;
      notes.push({ code: 'image_unreadable', detail: image.name, count: 1 });
      prepared.set(image.key, null);
    }
  }

  try {
    const outcome = await ctx.db.transaction().execute(async (trx) => {
      const images = await insertImages(trx, user.id, prepared);
      const keys = await insertEntries(trx, user.id, imported);
      const imageNames = new Map(imported.images.map((image) => [image.key, image.name]));
      const placeholder = translator('import', user.language);
      const doc = storableContent(
        rewrite(imported.content, {
          images,
          keys,
          refusedImage: (key) => ({
            type: 'paragraph',
            content: [
              {
                type: 'text',
                text: placeholder('placeholders.refusedImage', { name: imageNames.get(key) ?? key }),
              },
            ],
          }),
        }),
      );
      const created = await createDocument(trx, user.id, {
        title: imported.title.slice(0, TITLE_MAX),
        path,
        content: doc,
      });
      const shas = [
        ...new Set([...prepared.values()].flatMap((entry) => (entry ? [entry.image.sha256] : []))),
      ];
      if (shas.length) {
        await trx
          .insertInto('document_images')
          .values(shas.map((sha256) => ({ document_id: created.id, sha256 })))
          .execute();
      }
      const now = Date.now();
      for (const thread of imported.threads) {
        await insertThread(
          trx,
          created.id,
          thread.id,
          { user: null, resolved: thread.resolved, created: thread.comments[0]?.date || now },
          thread.comments.map((comment) => ({
            user: null,
            // The comment's author in the file; the importer's name when it had none.
            name: comment.author || user.name,
            text: comment.text,
            at: comment.date || now,
          })),
        );
      }
      return {
        ...created,
        title: imported.title.slice(0, TITLE_MAX),
        images: [...images.values()].filter(Boolean).length,
        entries: keys.size,
      };
    });
    for (const entry of prepared.values()) {
      if (entry && !entry.image.thumbnail)
        void makeThumbnail(ctx.config, entry.image.sha256, entry.image.fileType);
    }
    return { ...outcome, notes };
  } catch (error) {
    for (const entry of prepared.values()) {
      if (entry)
        await removeFilesIfUnused(ctx.db, ctx.config.dataDir, entry.image.sha256, entry.image.fileType);
    }
    throw error;
  }
}
