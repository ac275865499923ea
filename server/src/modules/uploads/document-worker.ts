import { importDocument } from '@scriptorium/common/import/index';
import { ImportRefused } from '@scriptorium/common/import/problems';
import { lowerThreadPriority, reportStarted, type StartSignal } from '../../util/worker-threads';
import type { UploadResult, UploadTask } from './tasks';

// Heavy work goes after the event loop that answers everyone (util/worker-threads.ts).
lowerThreadPriority();

/**
 * New document > Import in an upload worker (issue 19): the DOCX, ODT or native zip read into our
 * document. A file of its own, run per task (worker-pool.ts), so that the readers (xmldom, the
 * math converters) load only in a worker that imports: the others keep their whole memory budget
 * for images and drawings.
 */
export default function readDocument(
  task: Extract<UploadTask, { kind: 'document' }> & StartSignal,
): UploadResult {
  reportStarted(task);
  try {
    return { ok: true, kind: 'document', imported: importDocument(task.bytes, task.name), refusal: null };
  } catch (error) {
    if (error instanceof ImportRefused)
      return { ok: true, kind: 'document', imported: null, refusal: error.code };
    throw error;
  }
}
