import type { MultipartFile } from '@fastify/multipart';
import { importApi } from '@scriptorium/common/api/endpoints/imports';
import { type ImportResponse, importFields } from '@scriptorium/common/api/imports';
import { type ImportRefusal, ImportRefused, MAX_IMPORT_BYTES } from '@scriptorium/common/import/problems';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { route } from '../../http/endpoint';
import { ValidationError } from '../../http/errors';
import type { FormBody } from '../../http/form-body';
import { requireUser } from '../../http/session';
import { translator } from '../../i18n/translate';
import { asHeavyTask, HEAVY_RETRY_AFTER_SECONDS, HeavyWorkBusy } from '../documents/export/heavy-work';
import { importDocumentFile } from './commands/import-document';

/** New document > Import (issue 19): POST /api/documents/import/. */

class Refused extends Error {
  constructor(readonly code: ImportRefusal | 'malformed') {
    super(code);
  }
}

async function readFile(part: MultipartFile): Promise<Buffer> {
  try {
    const bytes = await part.toBuffer();
    if (part.file.truncated) throw new Refused('too_large');
    return bytes;
  } catch (error) {
    if (error instanceof Refused) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new Refused('too_large');
    throw new Refused('malformed');
  }
}

async function readUpload(
  request: FastifyRequest,
): Promise<{ fields: FormBody; file: { bytes: Buffer; name: string } | null }> {
  const fields: FormBody = Object.create(null);
  let file: { bytes: Buffer; name: string } | null = null;
  if (!request.isMultipart()) return { fields, file };
  try {
    for await (const part of request.parts({
      limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10 },
    })) {
      if (part.type === 'file') {
        if (part.fieldname === 'file') file = { bytes: await readFile(part), name: part.filename ?? '' };
        else await part.toBuffer().catch(() => undefined);
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    if (error instanceof Refused) throw error;
    throw new Refused('malformed');
  }
  return { fields, file };
}

function refuse(request: FastifyRequest, reply: FastifyReply, code: ImportRefusal, status = 400) {
  const answer: ImportResponse = { code, error: translator('import', request.language)(`refusals.${code}`) };
  return reply.code(status).send(answer);
}

export function importRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, importApi.document, async (request, reply) => {
      const user = requireUser(request);
      let upload: Awaited<ReturnType<typeof readUpload>>;
      try {
        upload = await readUpload(request);
      } catch (error) {
        if (error instanceof Refused) {
          return refuse(
            request,
            reply,
            error.code === 'malformed' ? 'corrupt' : error.code,
            error.code === 'too_large' ? 413 : 400,
          );
        }
        throw error;
      }
      const parsed = importFields.safeParse(upload.fields);
      if (!parsed.success) throw new ValidationError(parsed.error.issues, upload.fields);
      if (!upload.file || upload.file.bytes.length === 0) return refuse(request, reply, 'unknown_format');
      try {
        const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
        const file = upload.file;
        const outcome = await asHeavyTask(ctx.config, user.id, () =>
          importDocumentFile(
            ctx,
            { id: user.id, name, language: request.language },
            { file, path: parsed.data.path },
          ),
        );
        reply.code(201);
        return outcome satisfies ImportResponse;
      } catch (error) {
        if (error instanceof HeavyWorkBusy) {
          reply.header('retry-after', String(HEAVY_RETRY_AFTER_SECONDS));
          return refuse(request, reply, 'busy', 429);
        }
        if (error instanceof ImportRefused)
          return refuse(request, reply, error.code, error.code === 'too_large' ? 413 : 400);
        throw error;
      }
    });
  };
}
