import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import { imagesResponse, saveImageResponse } from '@scriptorium/common/api/usermedia';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ENGINES, type TestClient, type TestResponse, type TestServer, useServer } from './harness';

/** Image bytes of each accepted raster format, made in the test so that nothing binary is checked in. */
async function raster(
  format: 'png' | 'jpeg' | 'webp' | 'avif' | 'gif',
  width = 30,
  height = 20,
  colour = '#3366cc',
) {
  const base = sharp({ create: { width, height, channels: 3, background: colour } });
  return base[format]().toBuffer();
}

const SVG_WITH_SCRIPT = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="48" onload="alert('x')">
  <script>alert(document.cookie)</script>
  <rect width="64" height="48" fill="green" onclick="steal()"/>
  <image xlink:href="https://tracker.example/pixel.png" width="1" height="1"/>
  <a href="javascript:alert(1)"><circle cx="10" cy="10" r="5"/></a>
</svg>`;

interface Upload {
  fields?: Record<string, unknown>;
  file?: { bytes: Uint8Array; name: string; type: string };
}

/** A multipart save as the browser's `call` sends it (FormData, cookies, CSRF header). */
function upload(client: TestClient, { fields = {}, file }: Upload): Promise<TestResponse> {
  const image = file && new File([new Uint8Array(file.bytes)], file.name, { type: file.type });
  return client.call(usermediaApi.save, { ...fields, image });
}

async function list(client: TestClient) {
  const response = await client.call(usermediaApi.images);
  expect(response.status, response.text).toBe(200);
  return imagesResponse.parse(response.json());
}

function savedImage(response: TestResponse) {
  const body = saveImageResponse.parse(response.json());
  expect(body.errormsg).toEqual({});
  if (!body.values) throw new Error(`no image in ${response.text}`);
  return body.values;
}

/** Uploads an image that the server takes; what it stored. */
async function uploaded(client: TestClient, file: Upload['file'], fields: Upload['fields'] = {}) {
  return savedImage(await upload(client, { fields, file }));
}

function mediaFiles(server: TestServer, folder: 'images' | 'thumbnails'): string[] {
  const dir = path.join(server.ctx.config.dataDir, 'media', folder);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe.each(ENGINES)('image library API (%s)', (engine) => {
  const server = useServer(engine);

  async function newUser() {
    const user = await server().buildUser();
    return server().loginAs(user);
  }

  it('accepts PNG, JPEG, WebP, AVIF and GIF, records their size and serves them to the owner', async () => {
    const browser = await newUser();
    const formats = [
      ['png', 'image/png', 'png'],
      ['jpeg', 'image/jpeg', 'jpg'],
      ['webp', 'image/webp', 'webp'],
      ['avif', 'image/avif', 'avif'],
      ['gif', 'image/gif', 'gif'],
    ] as const;
    for (const [index, [format, mime, extension]] of formats.entries()) {
      const bytes = await raster(format, 300 + index, 200);
      const response = await upload(browser, {
        fields: { title: `Figure ${format}` },
        file: { bytes, name: `figure.${extension}`, type: mime },
      });
      expect(response.status, response.text).toBe(201);
      const image = savedImage(response);
      expect(image).toMatchObject({
        title: `Figure ${format}`,
        file_type: mime,
        width: 300 + index,
        height: 200,
        cats: [],
      });
      expect(image.image).toMatch(new RegExp(`^/media/images/[0-9a-f]{64}\\.${extension}$`));
      expect(image.thumbnail).toMatch(/^\/media\/thumbnails\/[0-9a-f]{64}\.webp$/);

      const file = await browser.get(image.image);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(mime);
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      const thumbnail = await browser.get(image.thumbnail);
      expect(thumbnail.headers.get('content-type')).toBe('image/webp');
      const thumbnailMeta = await sharp(
        Buffer.from(
          await (
            await fetch(`${server().baseUrl}${image.thumbnail}`, {
              headers: { cookie: `sessionid=${browser.cookies.get('sessionid')}` },
            })
          ).arrayBuffer(),
        ),
      ).metadata();
      expect(thumbnailMeta.format).toBe('webp');
      expect(Math.max(thumbnailMeta.width ?? 0, thumbnailMeta.height ?? 0)).toBe(240);
    }
    const { images } = await list(browser);
    expect(images.map((image) => image.file_type)).toEqual(formats.map(([, mime]) => mime));
  });

  it('trusts the content, not the name: a PNG called .jpg is a PNG', async () => {
    const browser = await newUser();
    const response = await upload(browser, {
      file: { bytes: await raster('png', 12, 34), name: 'photo.jpg', type: 'image/jpeg' },
    });
    expect(response.status, response.text).toBe(201);
    const image = savedImage(response);
    expect(image).toMatchObject({ file_type: 'image/png', width: 12, height: 34, title: '' });
    expect(image.image.endsWith('.png')).toBe(true);
    expect((await browser.get(image.image)).headers.get('content-type')).toBe('image/png');
  });

  it('refuses a text file called .png with a clear error and stores nothing', async () => {
    const browser = await newUser();
    const before = mediaFiles(server(), 'images');
    const response = await upload(browser, {
      fields: { title: 'Not a picture' },
      file: {
        bytes: Buffer.from('Dear diary, today I renamed a text file.'),
        name: 'picture.png',
        type: 'image/png',
      },
    });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      errormsg: {
        error: 'This file type is not supported. Please upload a PNG, JPEG, WebP, AVIF, GIF or SVG image.',
      },
    });
    expect((await list(browser)).images).toEqual([]);
    expect(mediaFiles(server(), 'images')).toEqual(before);
  });

  it('refuses bytes that only start like a PNG, in the language of the user', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user, { 'accept-language': 'de' });
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('junk'.repeat(50)),
    ]);
    const response = await upload(browser, {
      file: { bytes: fake, name: 'x.png', type: 'image/png' },
    });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      errormsg: { error: 'Die Datei konnte nicht als Bild gelesen werden.' },
    });
  });

  it('stores an SVG only after removing scripts, handlers and external references', async () => {
    const browser = await newUser();
    const response = await upload(browser, {
      file: { bytes: Buffer.from(SVG_WITH_SCRIPT), name: 'drawing.svg', type: 'image/svg+xml' },
    });
    expect(response.status, response.text).toBe(201);
    const image = savedImage(response);
    expect(image).toMatchObject({ file_type: 'image/svg+xml', width: 64, height: 48 });
    const file = await browser.get(image.image);
    expect(file.headers.get('content-type')).toBe('image/svg+xml');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    for (const bad of ['<script', 'onload', 'onclick', 'tracker.example', 'javascript:', 'document.cookie']) {
      expect(file.text).not.toContain(bad);
    }
    expect(file.text).toContain('fill="green"');
  });

  it('answers 413 for a file over MEDIA_MAX_SIZE (10 MB by default) and stores nothing', async () => {
    const browser = await newUser();
    const before = mediaFiles(server(), 'images');
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
    (await raster('png')).copy(big);
    const response = await upload(browser, {
      file: { bytes: big, name: 'huge.png', type: 'image/png' },
    });
    expect(response.status).toBe(413);
    expect(response.json()).toEqual({
      errormsg: { error: 'Image is larger than the maximum permitted size' },
    });
    expect((await list(browser)).images).toEqual([]);
    expect(mediaFiles(server(), 'images')).toEqual(before);
  });

  it('stores the same file once when one user uploads it twice', async () => {
    const browser = await newUser();
    const bytes = await raster('png', 41, 41, '#abcdef');
    const first = await uploaded(browser, { bytes, name: 'a.png', type: 'image/png' }, { title: 'One' });
    const before = mediaFiles(server(), 'images');
    const again = await upload(browser, {
      fields: { title: 'Two' },
      file: { bytes, name: 'b.png', type: 'image/png' },
    });
    expect(again.status).toBe(200);
    expect(savedImage(again)).toEqual(first);
    expect((await list(browser)).images).toHaveLength(1);
    expect(mediaFiles(server(), 'images')).toEqual(before);
  });

  it('updates title, categories and copyright without a file', async () => {
    const browser = await newUser();
    const image = await uploaded(browser, { bytes: await raster('jpeg'), name: 'x.jpg', type: 'image/jpeg' });
    const cats = (
      await browser.call(usermediaApi.saveCategories, { ids: [0, 0], titles: ['Maps', 'Plots'] })
    ).json<{
      entries: { id: number; category_title: string }[];
    }>().entries;
    const response = await upload(browser, {
      fields: {
        id: String(image.id),
        title: '  Study area  ',
        cats: [cats[1].id],
        copyright: { holder: 'Ann Author', licence: 'CC-BY-4.0' },
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(savedImage(response)).toEqual({
      ...image,
      title: 'Study area',
      cats: [cats[1].id],
      copyright: { holder: 'Ann Author', licence: 'CC-BY-4.0' },
    });
    // A plain form post (no multipart) works the same.
    const plain = await browser.post(usermediaApi.save.path, { id: image.id, title: 'Renamed', cats: '[]' });
    expect(plain.status, plain.text).toBe(200);
    expect((await list(browser)).images[0]).toMatchObject({ title: 'Renamed', cats: [] });
  });

  it('replaces all categories: trims, drops empty titles, adds id 0 and removes what is left out', async () => {
    const browser = await newUser();
    const first = await browser.call(usermediaApi.saveCategories, {
      ids: [0, 0, 0],
      titles: [' Maps ', 'Plots', '   '],
    });
    expect(first.status, first.text).toBe(200);
    const [maps, plots] = first.json<{ entries: { id: number; category_title: string }[] }>().entries;
    expect([maps.category_title, plots.category_title]).toEqual(['Maps', 'Plots']);
    const image = await uploaded(
      browser,
      { bytes: await raster('gif'), name: 'x.gif', type: 'image/gif' },
      { cats: [maps.id, plots.id] },
    );
    expect(image.cats).toEqual([maps.id, plots.id]);

    const second = await browser.call(usermediaApi.saveCategories, {
      ids: [maps.id, 0, 0],
      titles: ['Charts ', ' Photos', ''],
    });
    expect(second.status, second.text).toBe(200);
    const entries = second.json<{ entries: { id: number; category_title: string }[] }>().entries;
    expect(entries.map((entry) => entry.category_title)).toEqual(['Charts', 'Photos']);
    expect(entries[0].id).toBe(maps.id);
    const after = await list(browser);
    expect(after.imageCategories).toEqual(entries);
    expect(after.images[0].cats).toEqual([maps.id]);

    const cleared = await browser.call(usermediaApi.saveCategories, {});
    expect(cleared.json()).toEqual({ entries: [] });
    expect((await list(browser)).images[0].cats).toEqual([]);
  });

  it("keeps other users' images, categories and files out of reach and unchanged", async () => {
    const owner = await newUser();
    const other = await newUser();
    const bytes = await raster('png', 50, 50, '#ff0000');
    const image = await uploaded(owner, { bytes, name: 's.png', type: 'image/png' }, { title: 'Secret' });
    const [category] = (
      await owner.call(usermediaApi.saveCategories, { ids: [0], titles: ['Private'] })
    ).json<{
      entries: { id: number }[];
    }>().entries;

    expect((await list(other)).images).toEqual([]);
    expect((await other.get(image.image)).status).toBe(404);
    expect((await other.get(image.thumbnail)).status).toBe(404);
    expect((await server().client().get(image.image)).status).toBe(404);

    const edit = await upload(other, { fields: { id: String(image.id), title: 'Mine now' } });
    expect(edit.status).toBe(404);
    const remove = await other.call(usermediaApi.delete, { ids: [image.id] });
    expect(remove.status).toBe(404);
    const rename = await other.call(usermediaApi.saveCategories, {
      ids: [category.id],
      titles: ['Taken'],
    });
    expect(rename.status).toBe(404);
    const useCategory = await upload(other, {
      fields: { cats: [category.id] },
      file: { bytes: await raster('webp'), name: 'w.webp', type: 'image/webp' },
    });
    expect(useCategory.status).toBe(404);
    expect((await list(other)).images).toEqual([]);
    // Mixed lists change nothing either.
    const own = await uploaded(other, { bytes: await raster('jpeg'), name: 'o.jpg', type: 'image/jpeg' });
    const mixed = await other.call(usermediaApi.delete, { ids: [own.id, image.id] });
    expect(mixed.status).toBe(404);
    expect((await list(other)).images.map((entry) => entry.id)).toEqual([own.id]);

    const after = await list(owner);
    expect(after.images).toEqual([image]);
    expect(after.imageCategories).toEqual([{ id: category.id, category_title: 'Private' }]);
    expect((await owner.get(image.image)).status).toBe(200);

    // The same bytes uploaded by the other user make their own image; deleting it keeps the owner's file.
    const copy = savedImage(await upload(other, { file: { bytes, name: 'copy.png', type: 'image/png' } }));
    expect(copy.id).not.toBe(image.id);
    expect((await other.call(usermediaApi.delete, { ids: [copy.id] })).status).toBe(200);
    expect((await owner.get(image.image)).status).toBe(200);
    expect((await other.get(image.image)).status).toBe(404);
  });

  it('deletes images and their files', async () => {
    const browser = await newUser();
    const a = await uploaded(browser, { bytes: await raster('png', 7, 7), name: 'a.png', type: 'image/png' });
    const b = await uploaded(browser, { bytes: await raster('png', 8, 8), name: 'b.png', type: 'image/png' });
    const name = path.basename(a.image);
    expect(mediaFiles(server(), 'images')).toContain(name);
    const response = await browser.call(usermediaApi.delete, { ids: [a.id] });
    expect(response.status, response.text).toBe(200);
    expect(response.json()).toEqual({ ids: [a.id] });
    expect((await list(browser)).images.map((image) => image.id)).toEqual([b.id]);
    expect(mediaFiles(server(), 'images')).not.toContain(name);
    expect((await browser.get(a.image)).status).toBe(404);
    const empty = await browser.call(usermediaApi.delete, { ids: [] as number[] });
    expect(empty.status).toBe(400);
  });

  it('asks visitors to log in', async () => {
    const visitor = server().client();
    expect((await visitor.call(usermediaApi.images)).status).toBe(401);
    expect((await visitor.call(usermediaApi.saveCategories, { ids: [0], titles: ['x'] })).status).toBe(401);
    expect(
      (
        await upload(visitor, {
          file: { bytes: await raster('png'), name: 'a.png', type: 'image/png' },
        })
      ).status,
    ).toBe(401);
  });
});
