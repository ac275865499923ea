import { usermediaApi } from '@scriptorium/common/api/endpoints/usermedia';
import {
  type ImagesCheckRequest,
  imagesCheckResponse,
  imagesResponse,
  saveImageResponse,
} from '@scriptorium/common/api/usermedia';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ENGINES, type TestClient, useServer } from './harness';

/** A small PNG of its own colour: the server stores one file once, so each upload differs. */
async function png(shade: number): Promise<Uint8Array> {
  return sharp({ create: { width: 20, height: 10, channels: 3, background: { r: shade, g: 90, b: 40 } } })
    .png()
    .toBuffer();
}

async function uploadImage(client: TestClient, title: string, shade: number) {
  const image = new File([new Uint8Array(await png(shade))], `${title}.png`, { type: 'image/png' });
  const response = await client.call(usermediaApi.save, { title, image });
  expect(response.status, response.text).toBe(201);
  const values = saveImageResponse.parse(response.json()).values;
  if (!values) throw new Error(response.text);
  return values;
}

async function check(client: TestClient, state: ImagesCheckRequest) {
  const response = await client.call(usermediaApi.imagesCheck, state);
  expect(response.status, response.text).toBe(200);
  return imagesCheckResponse.parse(response.json());
}

/** What the browser keeps after an answer: the stamp, the count and whose library it is. */
function stateOf(answer: { last_modified: number; number_of_images: number; user_id: number }) {
  return {
    last_modified: answer.last_modified,
    number_of_images: answer.number_of_images,
    user_id: answer.user_id,
  };
}

describe.each(ENGINES)('image library unchanged check (%s)', (engine) => {
  const server = useServer(engine);

  it('sends the images only when the cached copy is stale, and the categories always', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);

    // Nothing cached (the -1 of an empty cache): the whole list, with its stamp.
    const empty = await check(browser, { last_modified: -1, number_of_images: -1, user_id: -1 });
    expect(empty).toEqual({
      images: [],
      imageCategories: [],
      user_id: user.id,
      last_modified: 0,
      number_of_images: 0,
    });

    const first = await uploadImage(browser, 'First', 10);
    const full = await check(browser, { ...stateOf(empty) });
    expect(full.images).toEqual([first]);
    expect(full.number_of_images).toBe(1);
    expect(full.last_modified).toBeGreaterThan(0);

    // Current: no images, categories and the same stamp.
    const unchanged = await check(browser, stateOf(full));
    expect(unchanged).toEqual({ ...stateOf(full), imageCategories: [] });
    expect('images' in unchanged).toBe(false);

    // The plain list keeps the spec's answer exactly: images and categories, nothing else.
    const plain = await browser.call(usermediaApi.images);
    expect(Object.keys(plain.json() as object)).toEqual(['images', 'imageCategories']);
    expect(imagesResponse.parse(plain.json())).toEqual({ images: [first], imageCategories: [] });

    // Each kind of change makes the cached copy stale.
    const changes: Array<[string, () => Promise<unknown>]> = [
      ['an upload', () => uploadImage(browser, 'Second', 20)],
      [
        'a title change',
        () => browser.post(usermediaApi.save.path, { id: first.id, title: 'Renamed', cats: '[]' }),
      ],
      ['new categories', () => browser.call(usermediaApi.saveCategories, { ids: [0], titles: ['Maps'] })],
      ['a removed category', () => browser.call(usermediaApi.saveCategories, { ids: [], titles: [] })],
      ['a deletion', () => browser.call(usermediaApi.delete, { ids: [first.id] })],
    ];
    let state = stateOf(unchanged);
    for (const [name, change] of changes) {
      await change();
      const answer = await check(browser, state);
      expect(answer.images, name).toBeDefined();
      expect(answer.last_modified, name).toBeGreaterThan(state.last_modified);
      const plainNow = imagesResponse.parse((await browser.call(usermediaApi.images)).json());
      expect(answer.images, name).toEqual(plainNow.images);
      expect(answer.imageCategories, name).toEqual(plainNow.imageCategories);
      expect(answer.number_of_images, name).toBe(plainNow.images.length);
      state = stateOf(answer);
      expect('images' in (await check(browser, state)), name).toBe(false);
    }
  });

  it("sends the list when the count differs or the cache is another user's, and never another's images", async () => {
    const alice = await server().buildUser();
    const bob = await server().buildUser();
    const aliceBrowser = await server().loginAs(alice);
    const bobBrowser = await server().loginAs(bob);
    const image = await uploadImage(aliceBrowser, 'Alice', 30);
    await uploadImage(bobBrowser, 'Bob', 40);

    const current = stateOf(
      await check(aliceBrowser, { last_modified: -1, number_of_images: -1, user_id: -1 }),
    );
    expect((await check(aliceBrowser, { ...current, number_of_images: 5 })).images).toEqual([image]);
    // A stamp from the future does not hide a different count either.
    expect(
      (
        await check(aliceBrowser, {
          ...current,
          last_modified: current.last_modified + 1e9,
          number_of_images: 0,
        })
      ).images,
    ).toEqual([image]);
    // Alice's stamp on Bob's session: Bob's own list, never Alice's.
    const bobs = await check(bobBrowser, current);
    expect(bobs.user_id).toBe(bob.id);
    expect(bobs.images?.map((entry) => entry.title)).toEqual(['Bob']);
    // Unreadable numbers count as "nothing cached".
    const junk = await aliceBrowser.get(
      `${usermediaApi.images.path}?last_modified=abc&number_of_images=&user_id=x`,
    );
    expect(junk.status).toBe(200);
    expect(imagesCheckResponse.parse(junk.json()).images).toEqual([image]);
  });

  it('asks visitors to log in', async () => {
    const visitor = server().client();
    const response = await visitor.call(usermediaApi.imagesCheck, {
      last_modified: 0,
      number_of_images: 0,
      user_id: 1,
    });
    expect(response.status).toBe(401);
  });
});
