import { lowerThreadPriority, reportStarted, type StartSignal } from '../../util/worker-threads';
import { ImageRejected, prepareImage, renderThumbnail, type SvgCleaner } from '../usermedia/prepare-image';
import type { UploadResult, UploadTask } from './tasks';

// Heavy work goes after the event loop that answers everyone (util/worker-threads.ts).
lowerThreadPriority();

export type ImageTask = Extract<UploadTask, { kind: 'image' | 'thumbnail' }>;

/**
 * The upload pool's default worker body (worker-pool.ts): raster images and their thumbnails, the
 * tasks of every image upload. It loads sharp and nothing else, so a worker starts in about a
 * third of the time upload-worker.ts needs with its sanitisers (jsdom, css-tree) and the avatar
 * code; a burst of uploads waited for that start-up. SVG and the other kinds go to
 * upload-worker.ts, which passes the sanitiser in.
 */
export default async function processImage(
  task: ImageTask & StartSignal,
  cleanSvg?: SvgCleaner,
): Promise<UploadResult> {
  reportStarted(task);
  try {
    if (task.kind === 'thumbnail')
      return { ok: true, kind: 'thumbnail', webp: await renderThumbnail(task.file) };
    const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    return { ok: true, kind: 'image', image: await prepareImage(bytes, cleanSvg) };
  } catch (error) {
    if (error instanceof ImageRejected) return { ok: false, reason: error.reason };
    throw error;
  }
}
