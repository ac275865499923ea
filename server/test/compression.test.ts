import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES } from '../src/http/compression';
import { createDocument } from '../src/modules/documents/commands/create-document';
import { ENGINES, type TestClient, useServer } from './harness';

/** The list answer as it crosses the wire: status, headers and the bytes before any decoding. */
function rawList(baseUrl: string, browser: TestClient, acceptEncoding: string) {
  const cookie = [...browser.cookies]
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('; ');
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = http.request(
      `${baseUrl}${documentsApi.list.path}`,
      {
        method: 'POST',
        headers: {
          cookie,
          'x-csrftoken': browser.cookies.get('csrftoken') ?? '',
          'content-type': 'application/x-www-form-urlencoded',
          'accept-encoding': acceptEncoding,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe.each(ENGINES)('compressed JSON answers (%s)', (engine) => {
  const server = useServer(engine);

  async function userWithPapers(count: number) {
    const { user, browser } = await server().loggedInUser();
    for (let index = 0; index < count; index++) {
      await createDocument(server().ctx.db, user.id, { title: `Paper ${index} on a long topic`, path: '/' });
    }
    return browser;
  }

  it('sends a large answer in Brotli or gzip, as accepted, with the same content as without', async () => {
    const browser = await userWithPapers(40);
    const plain = await rawList(server().baseUrl, browser, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThanOrEqual(COMPRESS_MIN_BYTES);
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);

    const br = await rawList(server().baseUrl, browser, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());

    const gzip = await rawList(server().baseUrl, browser, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(plain.body.toString());

    // Refused with q=0: the next accepted one, else none.
    expect((await rawList(server().baseUrl, browser, 'br;q=0, gzip')).headers['content-encoding']).toBe(
      'gzip',
    );
    expect((await rawList(server().baseUrl, browser, 'br;q=0')).headers['content-encoding']).toBeUndefined();

    // The browser's path (fetch decodes): the same documents.
    const listed = await browser.call(documentsApi.list);
    expect(listed.json<{ documents: unknown[] }>().documents).toHaveLength(40);
  });

  it('sends a small answer as it is', async () => {
    const browser = await userWithPapers(0);
    const answer = await rawList(server().baseUrl, browser, 'gzip, br');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toEqual({ documents: [] });
  });
});
