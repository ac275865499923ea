import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * JSON answers of at least this many bytes go compressed to a client that accepts it. Below it
 * the saving is a few hundred bytes, less than the answer's headers; above it lists grow without
 * end (a bibliography of 10,000 entries is about 6 MiB as JSON; the bench's went out as 0.13 MiB).
 */
export const COMPRESS_MIN_BYTES = 2048;

export type ContentEncoding = 'br' | 'gzip';

/** One answer text's compressed forms, kept by a route that sends the same text again. */
export type CompressedCopies = Map<ContentEncoding, Promise<Buffer>>;

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Set by a route whose answer text is kept and sent again unchanged (the documents list): its
     * compressed forms are made once and then taken from here.
     */
    compressedCopies: CompressedCopies | null;
  }
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The encoding to answer with, from an Accept-Encoding header: Brotli (smaller at the same speed)
 * before gzip, either only when not refused with q=0; null for none (identity).
 */
export function chooseEncoding(header: string | undefined): ContentEncoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** Adds Accept-Encoding to the answer's Vary header, keeping what a route put there. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) return;
  reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Compresses the API's JSON answers (the static files go precompressed by @fastify/static, media
 * are images). The work runs in libuv's thread pool, not on the event loop: a 6 MiB list takes
 * tens of milliseconds, which other requests need not wait for.
 */
export function registerCompression(app: FastifyInstance): void {
  app.decorateReply('compressedCopies', null);
  // A callback hook, not an async one: most answers leave it at once, without a promise each.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (request.method === 'HEAD' || reply.hasHeader('content-encoding')) return done(null, payload);
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
      return done(null, payload);
    const bytes = Buffer.byteLength(payload);
    if (bytes < COMPRESS_MIN_BYTES) return done(null, payload);
    varyOnEncoding(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    const copies = reply.compressedCopies;
    let compressed = copies?.get(encoding);
    if (!compressed) {
      compressed = compress(payload, encoding, bytes);
      copies?.set(encoding, compressed);
    }
    compressed.then(
      (body) => done(null, body),
      (error: Error) => {
        copies?.delete(encoding);
        done(error);
      },
    );
  });
}

function compress(payload: string | Buffer, encoding: ContentEncoding, bytes: number): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(payload);
  return brotliAsync(payload, {
    params: {
      // Quality 4: about gzip's speed at a smaller size; 11 (the default) is for static files.
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
    },
  });
}
