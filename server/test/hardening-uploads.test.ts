import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { saveImageResponse } from '@scriptorium/common/api/usermedia';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type TestClient, type TestResponse, useServer } from './harness';

/** Uploads an image with a title, as the image dialog does. */
function uploadImage(
  client: TestClient,
  bytes: Uint8Array,
  name = 'drawing.svg',
  type = 'image/svg+xml',
): Promise<TestResponse> {
  const image = new File([new Uint8Array(bytes)], name, { type });
  return client.call(usermediaApi.save, { title: 'Drawing', image });
}

const SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">';
const NESTED_SVG = `${SVG_OPEN}${'<g>'.repeat(20_000)}<rect width="1" height="1"/>${'</g>'.repeat(20_000)}</svg>`;
const FLAT_SVG = `${SVG_OPEN}${'<rect x="1" y="1" width="1" height="1"/>'.repeat(200_000)}</svg>`;
const TOO_COMPLEX =
  'This SVG file is too complex to accept: it may have at most 200 levels of nesting and 50,000 elements, and must be well-formed XML.';

const ESCAPED_CSS_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">
  <style>@\\69mport url(https://evil.example/a.css); .a { fill: blue }</style>
  <style>.b { fill: \\75rl(https://evil.example/b) } .c { stroke: red }</style>
  <style>.d { fill: u\\rl(https://evil.example/d) }</style>
  <style>.e { background: image-set("https://evil.example/e.png" 1x) }</style>
  <style>@IMPORT "https://evil.example/f.css";</style>
  <rect class="a" width="40" height="30" style="fill: U\\52L(https://evil.example/g); stroke: green"/>
  <rect width="4" height="3" fill="\\75rl(https://evil.example/h)" stroke="url(#grad)"/>
  <rect width="4" height="3" style="--x: url(https://evil.example/i); filter: var(--x)"/>
</svg>`;

describe.each(ENGINES)('hardening: uploads (%s)', (engine) => {
  const server = useServer(engine);

  it('keeps answering in milliseconds while hostile SVGs are processed, and refuses them clearly', async () => {
    const { browser } = await server().loggedInUser();
    const visitor = server().client();
    // Its connection and cookie first: the loop measures the server, not the client's set-up.
    expect((await visitor.call(baseApi.configuration)).status).toBe(200);
    for (const svg of [NESTED_SVG, FLAT_SVG]) {
      let done = false;
      const uploading = uploadImage(browser, Buffer.from(svg)).finally(() => {
        done = true;
      });
      const latencies: number[] = [];
      while (!done) {
        const started = performance.now();
        const config = await visitor.call(baseApi.configuration);
        latencies.push(performance.now() - started);
        expect(config.status).toBe(200);
      }
      const response = await uploading;
      expect(response.status, response.text).toBe(400);
      expect(response.json()).toEqual({ errormsg: { error: TOO_COMPLEX } });
      expect(latencies.length).toBeGreaterThan(0);
      // The one timed assertion the issue asks for: the event loop stays free during the upload.
      // The median, not the maximum: on a loaded machine any single request may be descheduled,
      // while a sanitiser on the event loop held every request for the whole upload (40-70 s).
      const sorted = [...latencies].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      expect(median, latencies.map(Math.round).join(' ')).toBeLessThan(200);
    }
  });

  it('removes CSS-escaped external references in every spelling and keeps the safe styles', async () => {
    const { browser } = await server().loggedInUser();
    const response = await uploadImage(browser, Buffer.from(ESCAPED_CSS_SVG));
    expect(response.status, response.text).toBe(201);
    const image = saveImageResponse.parse(response.json()).values;
    if (!image) throw new Error(response.text);
    const stored = await browser.get(image.image);
    expect(stored.status).toBe(200);
    expect(stored.text).not.toMatch(/evil\.example/);
    expect(stored.text).not.toMatch(/import/i);
    expect(stored.text).toContain('.a{fill:blue}');
    expect(stored.text).toContain('.c{stroke:red}');
    expect(stored.text).toContain('stroke:green');
    expect(stored.text).toContain('stroke="url(#grad)"');
    const meta = await sharp(Buffer.from(stored.text)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['svg', 40, 30]);
  });

  it('answers 400, not 500, to malformed multipart on the image and avatar uploads', async () => {
    const { browser } = await server().loggedInUser();
    const truncated =
      '--XyZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG';
    const cases = [
      { body: truncated, type: 'multipart/form-data; boundary=XyZ', field: 'image' },
      { body: 'no boundary at all', type: 'multipart/form-data', field: 'image' },
      {
        body: truncated.replace('"image"', '"avatar"'),
        type: 'multipart/form-data; boundary=XyZ',
        field: 'avatar',
      },
      { body: 'no boundary at all', type: 'multipart/form-data', field: 'avatar' },
    ];
    for (const { body, type, field } of cases) {
      // A malformed body the descriptor cannot express: sent raw to the endpoint's path.
      const target = field === 'image' ? usermediaApi.save.path : userApi.uploadAvatar.path;
      const response = await browser.request('POST', target, { body, headers: { 'content-type': type } });
      expect(response.status, `${target} ${type}: ${response.text}`).toBe(400);
      if (field === 'image') {
        expect(response.json()).toEqual({
          errormsg: { error: 'The upload was incomplete or malformed. Please try again.' },
        });
      } else {
        expect(response.json()).toEqual({
          msg: { avatar: ['The upload was incomplete or malformed. Please try again.'] },
        });
      }
    }
  });
});

describe.each(ENGINES)('hardening: upload budgets (%s)', (engine) => {
  const PROCESSING_LIMIT =
    'This image needs too much time or memory to process. Please upload a simpler or smaller file.';

  describe('time', () => {
    const server = useServer(engine, { env: { UPLOAD_TIME_LIMIT_MS: '1' } });
    it('refuses an upload whose processing outlasts the time budget, with a clear message', async () => {
      const { browser } = await server().loggedInUser();
      const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#123456' } })
        .png()
        .toBuffer();
      const response = await uploadImage(browser, png, 'a.png', 'image/png');
      expect(response.status, response.text).toBe(400);
      expect(response.json()).toEqual({ errormsg: { error: PROCESSING_LIMIT } });
    });
  });

  describe('memory', () => {
    // jsdom itself needs about 45 MB of heap: 56 MB lets a small drawing through, not a huge DOM.
    // One worker: the one that loaded jsdom in the setup is the one the hostile drawing goes to
    // (with two, it went to either, and to the cold one loaded jsdom again within the test).
    const server = useServer(engine, { env: { UPLOAD_MEMORY_MB: '56', UPLOAD_WORKERS: '1' } });
    const text = 'x'.repeat(100);
    const svg = (count: number) =>
      `${SVG_OPEN}${`<text x="1" y="1" class="${text}">${text}</text>`.repeat(count)}</svg>`;

    // Loading jsdom into a fresh worker takes 8 to 14 seconds on a machine with a load of 30
    // (measured: the same with a 56 MB or a 512 MB heap, so no garbage-collection spiral and no
    // leak, only jsdom's hundreds of modules). The test used to pay that twice, for the hostile
    // drawing and again for a small one in the replacement worker, and ran out of time under
    // load. Now the one cold load is setup, and the replacement worker gets a PNG (no jsdom).
    let small: TestResponse;
    beforeAll(async () => {
      const browser = await server().loginAs(await server().buildUser());
      small = await uploadImage(browser, Buffer.from(svg(10)));
    });

    it('lets a small drawing through within the memory budget', () => {
      expect(small.status, small.text).toBe(201);
    });

    it('refuses an upload whose processing needs more than the memory budget, and keeps serving', async () => {
      const browser = await server().loginAs(await server().buildUser());
      // Within the element limit, but every element carries a long attribute: a big DOM.
      const response = await uploadImage(browser, Buffer.from(svg(40_000)));
      expect(response.status, response.text).toBe(400);
      expect(response.json()).toEqual({ errormsg: { error: PROCESSING_LIMIT } });
      // The pool replaced the worker V8 ended: the next upload goes through. A PNG, which needs
      // no jsdom: loading it again into the new worker would prove nothing more about the pool.
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } })
        .png()
        .toBuffer();
      const next = await uploadImage(browser, png, 'after.png', 'image/png');
      expect(next.status, next.text).toBe(201);
    });
  });
});
