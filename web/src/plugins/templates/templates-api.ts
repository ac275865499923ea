import { templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import type {
  ExportFileEntry,
  ExportFileKind,
  TemplateDefinition,
  TemplateEntry,
  TemplateListEntry,
} from '@scriptorium/common/plugins/templates-api';
import { call } from '../../api/client';
import { rowsThroughCache } from '../../offline/local-db';

/** The overview's rows; offline, the ones cached in the local database's templates_list store. */
export async function fetchTemplates(): Promise<TemplateListEntry[]> {
  return rowsThroughCache('templates_list', async () => (await call(templatesApi.list)).templates);
}

export async function fetchTemplate(id: number): Promise<TemplateEntry> {
  return (await call(templatesApi.get, { id })).template;
}

export async function createTemplate(title = '', definition?: TemplateDefinition): Promise<number> {
  return (await call(templatesApi.create, definition ? { title, definition } : { title })).id;
}

export async function saveTemplate(id: number, title: string, definition: TemplateDefinition): Promise<void> {
  await call(templatesApi.save, { id, title, definition });
}

export async function copyTemplate(id: number): Promise<number> {
  return (await call(templatesApi.copy, { id })).id;
}

export async function deleteTemplates(ids: number[]): Promise<void> {
  await call(templatesApi.delete, { ids });
}

export async function uploadExportFile(
  id: number,
  kind: ExportFileKind,
  title: string,
  file: Blob,
): Promise<ExportFileEntry> {
  return (await call(templatesApi.uploadFile, { id, kind, title, file })).file;
}

export async function deleteExportFile(id: number, fileId: number): Promise<void> {
  await call(templatesApi.deleteFile, { id, file_id: fileId });
}

/** A new document of a template ('standard-article' or a stored template's id). */
export async function createDocumentFromTemplate(template: string, path: string) {
  return call(templatesApi.createDocument, { template, path });
}
