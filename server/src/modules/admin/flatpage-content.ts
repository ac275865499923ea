import { FormError } from '../../http/errors';
import { runUploadTask, UploadBudgetExceeded, type UploadPoolConfig } from '../uploads/worker-pool';

/** Sanitises in the upload worker pool; content that overruns its budget is a field error. */
export async function cleanFlatpageHtml(config: UploadPoolConfig, html: string): Promise<string> {
  try {
    const result = await runUploadTask(config, { kind: 'flatpage', html });
    if (result.ok && result.kind === 'flatpage') return result.html;
  } catch (error) {
    if (!(error instanceof UploadBudgetExceeded)) throw error;
  }
  throw new FormError(400, [], { content: [{ key: 'admin:errors.contentTooComplex' }] });
}

/**
 * Starts a worker and its jsdom (seconds on a busy machine) when staff open the flat pages, so
 * that their first preview or save does not wait for it. Runs off the event loop; errors are moot.
 */
export function warmFlatpageWorker(config: UploadPoolConfig): void {
  runUploadTask(config, { kind: 'flatpage', html: '' }).catch(() => undefined);
}
