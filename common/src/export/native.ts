import { exportNative, type NativeImage } from '../exchange/native';
import type { PreparedDocument } from './model';

/**
 * The native format (common/src/exchange/native.ts) as an export format: the document exactly as
 * stored (content JSON with its bibliography part), its cited entries, the comment threads the
 * exporting user sees and the figures' image files, keyed by the figure's library id as the
 * importer matches them.
 */
export function exportNativeFile(prepared: PreparedDocument): Uint8Array {
  const images: NativeImage[] = [];
  const seen = new Set<string>();
  prepared.doc.descendants((node) => {
    if (node.type.name !== 'figure') return true;
    const { image, src } = node.attrs as { image?: unknown; src?: unknown };
    const file = typeof src === 'string' ? prepared.images[src] : undefined;
    if (!file || typeof image !== 'number' || seen.has(String(image))) return false;
    seen.add(String(image));
    images.push({ key: String(image), name: String(src).split('/').pop() ?? `${image}`, bytes: file.data });
    return false;
  });
  return exportNative({
    title: prepared.title,
    content: prepared.doc.toJSON() as Record<string, unknown>,
    bibliography: [...prepared.entries].map(([key, data]) => ({ key, data })),
    threads: [...prepared.threads.values()].map((thread) => ({
      id: thread.id,
      resolved: thread.resolved,
      comments: thread.comments.map((comment) => ({
        author: comment.name,
        date: comment.created,
        text: comment.text,
      })),
    })),
    images,
  });
}
