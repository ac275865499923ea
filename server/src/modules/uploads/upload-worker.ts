import { lowerThreadPriority, reportStarted, type StartSignal } from '../../util/worker-threads';
import { sanitizeFlatpageHtml } from '../admin/sanitize-flatpage';
import { prepareAvatar } from '../user/avatar-image';
import { ImageRejected } from '../usermedia/prepare-image';
import { cleanSvgUpload } from '../usermedia/svg-sanitize';
import processImage from './image-worker';
import type { UploadResult, UploadTask } from './tasks';

// Heavy work goes after the event loop that answers everyone (util/worker-threads.ts).
lowerThreadPriority();

/**
 * The body of an upload worker thread (see worker-pool.ts) for every kind of task but imports. It
 * gets bytes and answers plain data: class instances do not cross the thread boundary, so refusals
 * come back as reasons. Raster images and thumbnails, the common tasks, go to image-worker.ts,
 * which starts in a third of the time (no sanitisers).
 */

/**
 * jsdom and DOMPurify, which the SVG and flat page sanitisers import on their first use: loading
 * them is this worker's cold start (8 to 14 s under tsx on a loaded machine), not a task's work,
 * so it is done before the task says it started and its time budget begins.
 */
let sanitizers: Promise<unknown> | null = null;
function loadSanitizers(): Promise<unknown> {
  sanitizers ??= Promise.all([import('jsdom'), import('dompurify')]);
  return sanitizers;
}

export default async function processUpload(task: UploadTask & StartSignal): Promise<UploadResult> {
  if (task.kind !== 'avatar') await loadSanitizers();
  reportStarted(task);
  if (task.kind === 'flatpage')
    return { ok: true, kind: 'flatpage', html: await sanitizeFlatpageHtml(task.html) };
  // Imports run document-worker.ts (worker-pool.ts names it per task), so that a worker that only
  // ever handled images never loads the document readers.
  if (task.kind === 'document') throw new Error('document tasks run document-worker.ts');
  if (task.kind !== 'avatar') return processImage(task, cleanSvgUpload);
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  try {
    const png = await prepareAvatar(bytes);
    return png ? { ok: true, kind: 'avatar', png } : { ok: false, reason: 'avatarType' };
  } catch (error) {
    if (error instanceof ImageRejected) return { ok: false, reason: error.reason };
    throw error;
  }
}
