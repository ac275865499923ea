import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ImageType } from '@scriptorium/common/api/usermedia';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { HttpError } from '../../http/errors';
import { userFromCookieHeader } from '../../http/session';
import { canReadMediaFile } from './policies';
import { EXTENSIONS } from './sniff';
import { imagePath, makeThumbnail, thumbnailPath } from './storage';

/**
 * GET /media/images/<sha256>.<ext> and /media/thumbnails/<sha256>.webp, only for a user who may
 * read the file (its owner, or an author of a document whose figures use it). Names are content hashes, so an answer never changes: the
 * browser may keep it for a year, privately (never in a shared cache). Anybody else gets the
 * same 404 as for a file that does not exist.
 */

const IMAGE_NAME = /^([0-9a-f]{64})\.(png|jpg|webp|avif|gif|svg)$/;
const THUMBNAIL_NAME = /^([0-9a-f]{64})\.webp$/;
const CACHE = 'private, max-age=31536000, immutable';
/** An SVG opened on its own must not run anything, even if the sanitiser missed something. */
const MEDIA_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

async function readableFile(
  ctx: AppContext,
  request: FastifyRequest,
  sha256: string,
): Promise<{ fileType: ImageType } | null> {
  // The session hook fills request.user for /api/ only; media requests carry the same cookie.
  const user = await userFromCookieHeader(ctx, request.headers.cookie);
  if (!user) return null;
  const access = await canReadMediaFile(ctx.db, user.id, sha256);
  return access ? { fileType: access.fileType as ImageType } : null;
}

async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: string,
  contentType: string,
  etag: string,
): Promise<FastifyReply> {
  reply.header('cache-control', CACHE);
  reply.header('etag', etag);
  reply.header('vary', 'Cookie');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw new HttpError(404);
  }
  reply.header('content-length', size);
  reply.type(contentType);
  return reply.send(createReadStream(file));
}

export function mediaRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    // Hooks of this scope run after the app's: the stricter CSP replaces the app's one.
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', MEDIA_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cross-origin-resource-policy', 'same-origin');
      return payload;
    });

    app.get<{ Params: { name: string } }>('/images/:name', async (request, reply) => {
      const match = IMAGE_NAME.exec(request.params.name);
      if (!match) throw new HttpError(404);
      const [, sha256, extension] = match;
      const access = await readableFile(ctx, request, sha256);
      if (!access || EXTENSIONS[access.fileType] !== extension) throw new HttpError(404);
      return sendFile(
        request,
        reply,
        imagePath(ctx.config.dataDir, sha256, access.fileType),
        access.fileType,
        `"${sha256}"`,
      );
    });

    app.get<{ Params: { name: string } }>('/thumbnails/:name', async (request, reply) => {
      const match = THUMBNAIL_NAME.exec(request.params.name);
      if (!match) throw new HttpError(404);
      const sha256 = match[1];
      const access = await readableFile(ctx, request, sha256);
      if (!access) throw new HttpError(404);
      // Made after the upload's answer (or lost): waited for, or made now from the image.
      await makeThumbnail(ctx.config, sha256, access.fileType);
      return sendFile(
        request,
        reply,
        thumbnailPath(ctx.config.dataDir, sha256),
        'image/webp',
        `"t-${sha256}"`,
      );
    });
  };
}
