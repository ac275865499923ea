import 'fake-indexeddb/auto';
import type { Image } from '@scriptorium/common/api/usermedia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearImageCache, emptyImageCache, readImageCache, writeImageCache } from './image-cache';
import { fetchImages } from './usermedia-api';

const image = (id: number): Image => ({
  id,
  title: `Figure ${id}`,
  file_type: 'image/png',
  width: 10,
  height: 10,
  size: 100,
  added: 1,
  thumbnail: `/media/thumbnails/${String(id).padStart(64, '0')}.webp`,
  image: `/media/images/${String(id).padStart(64, '0')}.png`,
  cats: [],
  copyright: { holder: '', licence: '' },
});

/** Answers the images route like the server and records the query the page sent. */
function stubServer(answer: Record<string, unknown>) {
  const queries: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      queries.push(new URL(url, 'http://localhost').searchParams);
      return new Response(JSON.stringify(answer), { status: 200 });
    }),
  );
  return queries;
}

/** Owner 7's cached images at stamp 500. */
function cacheOfOwner7(images: Image[]): Promise<void> {
  return writeImageCache({
    ...emptyImageCache(),
    last_modified: 500,
    number_of_images: images.length,
    owner_id: 7,
    images,
  });
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await clearImageCache();
});

describe('image cache', () => {
  it('starts empty with every value -1 and asks for the whole list', async () => {
    expect(await readImageCache()).toEqual(emptyImageCache());
    const queries = stubServer({
      images: [image(1)],
      imageCategories: [{ id: 3, category_title: 'Maps' }],
      user_id: 7,
      last_modified: 500,
      number_of_images: 1,
    });
    expect(await fetchImages()).toEqual({
      images: [image(1)],
      imageCategories: [{ id: 3, category_title: 'Maps' }],
    });
    expect(Object.fromEntries(queries[0])).toEqual({
      last_modified: '-1',
      number_of_images: '-1',
      user_id: '-1',
    });
    expect(await readImageCache()).toMatchObject({
      last_modified: 500,
      number_of_images: 1,
      owner_id: 7,
      images: [image(1)],
    });
  });

  it('sends its stamp and keeps its images when the server has nothing newer', async () => {
    await cacheOfOwner7([image(1), image(2)]);
    const queries = stubServer({
      imageCategories: [{ id: 4, category_title: 'Plots' }],
      user_id: 7,
      last_modified: 500,
      number_of_images: 2,
    });
    expect(await fetchImages()).toEqual({
      images: [image(1), image(2)],
      imageCategories: [{ id: 4, category_title: 'Plots' }],
    });
    expect(Object.fromEntries(queries[0])).toEqual({
      last_modified: '500',
      number_of_images: '2',
      user_id: '7',
    });
  });

  it('replaces the cache with a newer list', async () => {
    await cacheOfOwner7([image(1)]);
    stubServer({
      images: [image(2)],
      imageCategories: [],
      user_id: 7,
      last_modified: 900,
      number_of_images: 1,
    });
    expect((await fetchImages()).images).toEqual([image(2)]);
    expect(await readImageCache()).toMatchObject({ last_modified: 900, images: [image(2)] });
  });

  it('discards a cache of another version', async () => {
    await writeImageCache({ ...emptyImageCache(), version: '0', owner_id: 7, images: [image(1)] });
    expect(await readImageCache()).toEqual(emptyImageCache());
  });
});
