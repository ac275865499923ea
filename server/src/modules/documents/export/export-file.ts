import { type ExportedFile, exportDocument, isExportFormat } from '@scriptorium/common/export/registry';
import type { AppContext } from '../../../context';
import { HttpError } from '../../../http/errors';
import type { VisibleDocument } from '../queries';
import { exportEngines, gatherExportInput } from './gather-input';

/** One document in one format for one user; 404 for a format we do not make. */
export async function exportFile(
  ctx: AppContext,
  userId: number,
  document: VisibleDocument,
  format: string,
): Promise<ExportedFile> {
  if (!isExportFormat(format)) throw new HttpError(404);
  const input = await gatherExportInput(ctx, userId, document);
  return exportDocument(format, input, exportEngines);
}
