import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { escapeHtml } from '../util/escape-html';
import { isWsPath } from '../ws/paths';
import { HttpError } from './errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

/** Paths the app shell never answers: the API, uploaded media, the websocket endpoints. */
function isServerPath(ctx: AppContext, pathname: string): boolean {
  return /^\/(api|media)(\/|$)/.test(pathname) || isWsPath(ctx.config, pathname);
}

function notBuiltPage(request: FastifyRequest): string {
  const t = request.t;
  return `<!doctype html><html lang="${request.language}"><head><meta charset="utf-8"><title>${escapeHtml(
    t('spa.notBuiltTitle'),
  )}</title></head><body><h1>${escapeHtml(t('spa.notBuiltTitle'))}</h1><p>${escapeHtml(
    t('spa.notBuiltText'),
  )}</p></body></html>`;
}

/**
 * The built web app: hashed files under /assets/ are cached forever, everything else revalidates.
 * Any other GET that is not an API, media or websocket path gets index.html and the client router
 * picks the screen (spec 2.1). A missing /assets/ file stays a real 404 so that a failed chunk
 * load after a deploy is detectable by the client.
 */
export async function registerSpa(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = ctx.config.webDist;
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: true,
    // '/' serves index.html here; other directories have none and fall through to a 404.
    index: ['index.html'],
    cacheControl: false,
    etag: true,
    // The build writes .br and .gz copies of its text files (web/vite.config.ts): sent to
    // browsers that accept them, with Vary: Accept-Encoding.
    preCompressed: true,
    // Source maps stay on the server (for reading stack traces), never go to browsers.
    allowedPath: (pathname) => !pathname.endsWith('.map'),
    setHeaders: (reply, filePath) => {
      const relative = path.relative(root, filePath).split(path.sep).join('/');
      reply.header('cache-control', relative.startsWith('assets/') ? IMMUTABLE : NO_CACHE);
    },
  });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0];
    const shell =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isServerPath(ctx, pathname) &&
      !pathname.startsWith('/assets/');
    if (!shell) throw new HttpError(404);
    reply.header('cache-control', NO_CACHE);
    if (!existsSync(path.join(root, 'index.html'))) {
      return reply.type('text/html; charset=utf-8').send(notBuiltPage(request));
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html', root);
  });
}
