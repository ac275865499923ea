import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { isLanguage, type Language } from '@scriptorium/common/i18n/languages';
import {
  FIRST_SCREEN_MARKER,
  firstScreenMarkup,
  withFirstScreenPreloads,
} from '@scriptorium/common/shell/first-screen';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { translator } from '../i18n/translate';
import { escapeHtml } from '../util/escape-html';
import { isWsPath } from '../ws/paths';
import { HttpError } from './errors';
import { sessionUser } from './session';

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

/** An HTML shell, compressed once each way. */
interface CompressedShell {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

function compressedShell(html: string): CompressedShell {
  return { html, br: brotliCompressSync(html), gzip: gzipSync(html) };
}

/** Answers a shell in the best encoding the browser accepts. */
function sendCompressed(request: FastifyRequest, reply: FastifyReply, shell: CompressedShell) {
  reply.type('text/html; charset=utf-8');
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(shell.br);
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(shell.gzip);
  return reply.send(shell.html);
}

/** index.html as built, compressed once per version of the file (every route's shell). */
function builtShell(root: string) {
  let version = -1;
  let shell: CompressedShell | null = null;
  return (): CompressedShell | null => {
    const modified = statSync(path.join(root, 'index.html'), { throwIfNoEntry: false })?.mtimeMs;
    if (modified === undefined) return null;
    if (modified !== version || !shell) {
      version = modified;
      shell = compressedShell(readFileSync(path.join(root, 'index.html'), 'utf8'));
    }
    return shell;
  };
}

/**
 * The app shell of a logged-in start at '/' (common/src/shell/first-screen.ts): index.html with
 * the overview's heading in its boot shell, in the user's language (the one the configuration will
 * name), `lang` set to it, and the preloads of the shell's and the overview's files in effect.
 * Made once per language and version of index.html.
 */
function paintedShells(root: string) {
  let version = -1;
  let shells = new Map<Language, CompressedShell>();
  return (language: Language): CompressedShell | null => {
    const file = path.join(root, 'index.html');
    const modified = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (modified === undefined) return null;
    if (modified !== version) {
      version = modified;
      shells = new Map();
    }
    let shell = shells.get(language);
    if (!shell) {
      const index = readFileSync(file, 'utf8');
      if (!index.includes(FIRST_SCREEN_MARKER)) return null;
      const html = withFirstScreenPreloads(index, language)
        .replace(/<html lang="[^"]*">/, `<html lang="${language}">`)
        .replace(FIRST_SCREEN_MARKER, firstScreenMarkup(translator('documents', language)('title')));
      shell = compressedShell(html);
      shells.set(language, shell);
    }
    return shell;
  };
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

  // '/' of a logged-in browser's own navigation gets the overview's heading painted in. Not a
  // fetch (Sec-Fetch-Dest is then not 'document'): the service worker precaches '/' as the offline
  // shell of every route, which must carry no screen's heading.
  const painted = paintedShells(root);
  app.get('/', async (request, reply) => {
    reply.header('cache-control', NO_CACHE);
    reply.header('vary', 'Accept-Encoding, Cookie, Accept-Language');
    const user =
      ctx.state.ready && request.headers['sec-fetch-dest'] === 'document'
        ? await sessionUser(ctx, request)
        : null;
    const shell = user && painted(isLanguage(user.language) ? user.language : request.language);
    if (!shell) return sendShell(request, reply);
    return sendCompressed(request, reply, shell);
  });

  /**
   * index.html as built (or a page saying the app is not built yet), compressed: every route of
   * the app (/document/12/, ...) is answered from here, not by the static files' .br/.gz copies.
   */
  const built = builtShell(root);
  const sendShell = (request: FastifyRequest, reply: FastifyReply) => {
    const shell = built();
    if (!shell) return reply.type('text/html; charset=utf-8').send(notBuiltPage(request));
    reply.header('vary', 'Accept-Encoding');
    return sendCompressed(request, reply, shell);
  };

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0];
    const shell =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isServerPath(ctx, pathname) &&
      !pathname.startsWith('/assets/');
    if (!shell) throw new HttpError(404);
    reply.header('cache-control', NO_CACHE);
    return sendShell(request, reply);
  });
}
