import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { HttpError } from '../../http/errors';
import { AVATAR_NAME, avatarDir } from './avatar';

/**
 * GET /media/avatars/<name>: avatars show wherever the user appears (contacts, collaborators),
 * so they are public; names are random and new on every upload, so they cache forever.
 */
export function avatarRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { name: string } }>('/:name', async (request, reply) => {
      const { name } = request.params;
      if (!AVATAR_NAME.test(name)) throw new HttpError(404);
      const file = path.join(avatarDir(ctx.config.dataDir), name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) throw new HttpError(404);
      return reply
        .header('content-type', 'image/png')
        .header('content-length', info.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(file));
    });
  };
}
