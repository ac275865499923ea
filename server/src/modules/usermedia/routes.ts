import type { MultipartFile } from '@fastify/multipart';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { type SaveImageResponse, saveImageFields } from '@scriptorium/common/api/usermedia';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { ValidationError } from '../../http/errors';
import type { FormBody } from '../../http/form-body';
import { requireUser } from '../../http/session';
import { closeUploadPool } from '../uploads/worker-pool';
import { userRoute } from '../user-route';
import { deleteImages } from './commands/delete-images';
import { checkImages, listImages } from './commands/list-images';
import { saveCategories } from './commands/save-categories';
import { createImage, updateImage } from './commands/save-image';
import { ImageRejected } from './image-rejected';
import { type UsermediaMessage, usermediaMessage } from './messages';

/** Thrown while reading the upload when it is larger than MEDIA_MAX_SIZE. */
export class TooLarge extends Error {}

export interface SaveInput {
  fields: FormBody;
  file: Buffer | null;
}

async function readFile(part: MultipartFile): Promise<Buffer> {
  try {
    const bytes = await part.toBuffer();
    if (part.file.truncated) throw new TooLarge();
    return bytes;
  } catch (error) {
    if (error instanceof TooLarge) throw error;
    // @fastify/multipart's size limit error; any other stream failure is a broken request.
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new TooLarge();
    throw error;
  }
}

/** Multipart (the spec's upload) or a plain form (an update of title and categories). */
export async function readSaveInput(request: FastifyRequest, maxSize: number): Promise<SaveInput> {
  if (!request.isMultipart()) return { fields: (request.body ?? {}) as FormBody, file: null };
  const fields: FormBody = Object.create(null);
  let file: Buffer | null = null;
  for await (const part of request.parts({ limits: { fileSize: maxSize, files: 1, fields: 20 } })) {
    if (part.type === 'file') {
      // Only the field named `image` is the upload; anything else is drained and ignored.
      if (part.fieldname === 'image') file = await readFile(part);
      else await part.toBuffer().catch(() => undefined);
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, file };
}

function failure(request: FastifyRequest, reply: FastifyReply, status: number, key: UsermediaMessage) {
  const answer: SaveImageResponse = { errormsg: { error: usermediaMessage(request.language, key) } };
  return reply.code(status).send(answer);
}

export function usermediaRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onClose', async () => {
      await closeUploadPool(ctx.config);
      app.log.info('stopping: upload workers closed');
    });

    // One route, two answers: the spec's plain list, or (with the client's cached state in the
    // query) the cheap unchanged check of usermediaApi.imagesCheck.
    route(app, usermediaApi.images, async (request, reply) => {
      const user = requireUser(request);
      const query = (request.query ?? {}) as Record<string, unknown>;
      const checking = 'last_modified' in query || 'number_of_images' in query || 'user_id' in query;
      const body = checking
        ? await checkImages(ctx, user, parseInput(request, usermediaApi.imagesCheck))
        : await listImages(ctx, user);
      return reply.type('application/json; charset=utf-8').send(body);
    });

    route(app, usermediaApi.save, async (request, reply) => {
      const user = requireUser(request);
      let input: SaveInput;
      try {
        input = await readSaveInput(request, ctx.config.mediaMaxSize);
      } catch (error) {
        if (error instanceof TooLarge) return failure(request, reply, 413, 'tooLarge');
        // A truncated part, a missing boundary, too many parts: the request is broken, not the server.
        request.log.info({ err: error }, 'malformed multipart upload');
        return failure(request, reply, 400, 'malformedUpload');
      }
      const parsed = saveImageFields.safeParse(input.fields);
      if (!parsed.success) throw new ValidationError(parsed.error.issues, input.fields);
      const fields = parsed.data;
      try {
        if (fields.id !== 0) {
          const values = await updateImage(ctx, user, fields);
          return { errormsg: {}, values } satisfies SaveImageResponse;
        }
        if (!input.file || input.file.length === 0) return failure(request, reply, 400, 'noFile');
        const { image, existed } = await createImage(ctx, user, { ...fields, file: input.file });
        reply.code(existed ? 200 : 201);
        return { errormsg: {}, values: image } satisfies SaveImageResponse;
      } catch (error) {
        if (error instanceof ImageRejected) return failure(request, reply, 400, error.reason);
        throw error;
      }
    });

    userRoute(app, usermediaApi.delete, async (input, user) => {
      return { ids: await deleteImages(ctx, user, input) };
    });

    userRoute(app, usermediaApi.saveCategories, async (input, user) => {
      return { entries: await saveCategories(ctx, user, input) };
    });
  };
}
