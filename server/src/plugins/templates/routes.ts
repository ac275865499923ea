import { templatesApi } from '@scriptorium/common/api/endpoints/plugins';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument as createStandard, standardArticle } from '@scriptorium/common/editor/templates';
import { reducedReference } from '@scriptorium/common/export/reference-parts';
import { ImportRefused } from '@scriptorium/common/import/problems';
import { builtinTemplate } from '@scriptorium/common/plugins/builtin-templates';
import { documentFromDefinition, storedTemplateKey } from '@scriptorium/common/plugins/template-document';
import {
  EXPORT_FILE_MAX,
  standardDefinition,
  templateFileUploadFields,
} from '@scriptorium/common/plugins/templates-api';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { route } from '../../http/endpoint';
import { HttpError, ValidationError } from '../../http/errors';
import type { FormBody } from '../../http/form-body';
import { requireUser } from '../../http/session';
import { createDocument } from '../../modules/documents/commands/create-document';
import { userRoute } from '../../modules/user-route';
import { addTemplateFile, deleteTemplateFile, deleteTemplates, saveTemplate } from './commands';
import { isZip } from './files';
import {
  getTemplate,
  insertTemplate,
  listTemplates,
  parseDefinition,
  requireOwned,
  requireUsable,
  type TemplatesTables,
} from './queries';

/** The multipart upload of an export template: its fields and the one file named `file`. */
async function readUpload(request: FastifyRequest): Promise<{ fields: FormBody; file: Buffer | null }> {
  if (!request.isMultipart()) throw new HttpError(400);
  const fields: FormBody = Object.create(null);
  let file: Buffer | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: EXPORT_FILE_MAX, files: 1, fields: 10 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw new HttpError(413);
        if (part.fieldname === 'file') file = bytes;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413);
    throw new HttpError(400);
  }
  return { fields, file };
}

/** The Templates plugin's API (templatesApi), registered only while the plugin is on. */
export function templatesRoutes(ctx: AppContext): FastifyPluginAsync {
  const db = ctx.db.withTables<TemplatesTables>();
  return async (app) => {
    route(app, templatesApi.list, async (request) => {
      const user = requireUser(request);
      return { templates: await listTemplates(db, user.id) };
    });

    userRoute(app, templatesApi.get, async ({ id }, user) => {
      return { template: await getTemplate(db, user.id, id) };
    });

    userRoute(app, templatesApi.create, async (input, user) => {
      const title = input.title || standardArticle.title;
      return { id: await insertTemplate(db, user.id, title, input.definition ?? standardDefinition()) };
    });

    userRoute(app, templatesApi.save, async (input, user) => ({
      updated: await saveTemplate(db, user, input),
    }));

    userRoute(app, templatesApi.copy, async ({ id }, user) => {
      const source = await requireUsable(db, user.id, id);
      return { id: await insertTemplate(db, user.id, source.title, parseDefinition(source.definition)) };
    });

    userRoute(app, templatesApi.delete, async ({ ids }, user) => ({
      deleted: await deleteTemplates(ctx, db, user.id, ids),
    }));

    route(app, templatesApi.uploadFile, async (request) => {
      const user = requireUser(request);
      const upload = await readUpload(request);
      const parsed = templateFileUploadFields.safeParse(upload.fields);
      if (!parsed.success) throw new ValidationError(parsed.error.issues, upload.fields);
      const fields = parsed.data;
      await requireOwned(db, user.id, fields.id);
      // DOCX and ODT are ZIP containers; anything else cannot be a reference document.
      if (!upload.file || !isZip(upload.file)) throw new HttpError(400, { error: 'not_an_office_document' });
      // Checked once, here, with the imports' zip limits; what is stored is only what exports read.
      let reference: Uint8Array;
      try {
        reference = reducedReference(upload.file, fields.kind);
      } catch (error) {
        if (!(error instanceof ImportRefused)) throw error;
        if (error.code === 'zip_bomb')
          throw new HttpError(400, {
            error: 'reference_too_large',
            message: { key: 'errors.referenceTooLarge' },
          });
        throw new HttpError(400, { error: 'not_an_office_document' });
      }
      return { file: await addTemplateFile(ctx, db, fields, reference, upload.file.length) };
    });

    userRoute(app, templatesApi.deleteFile, async (input, user) => {
      await deleteTemplateFile(ctx, db, user.id, input);
      return { done: true as const };
    });

    // New document of a template: its structure is copied into the document's own nodes.
    userRoute(app, templatesApi.createDocument, async (input, user) => {
      let doc: ReturnType<typeof createStandard>;
      const builtin = builtinTemplate(input.template);
      if (input.template === standardArticle.id) {
        doc = createStandard(schema, standardArticle);
      } else if (builtin) {
        // A built-in journal template: its id is the document's template.
        doc = documentFromDefinition(schema, builtin.id, builtin.title, builtin.definition);
      } else {
        const id = Number(input.template);
        if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw new HttpError(404);
        const row = await requireUsable(db, user.id, id);
        doc = documentFromDefinition(
          schema,
          storedTemplateKey(id),
          row.title,
          parseDefinition(row.definition),
        );
      }
      return createDocument(ctx.db, user.id, {
        title: '',
        path: input.path,
        content: doc,
      });
    });
  };
}
