import { imagesResponse } from '@scriptorium/common/api/usermedia';
import { describe, expect, it } from 'vitest';
import { ENGINES, useServer } from './harness';

describe.each(ENGINES)('hardening: stored data (%s)', (engine) => {
  const server = useServer(engine);

  it('serialises parallel saves of the image categories of one owner', async () => {
    const user = await server().buildUser();
    const browser = await server().loginAs(user);
    const saves = Array.from({ length: 10 }, () =>
      browser.post('/api/usermedia/save_category/', { ids: ['0', '0'], titles: ['Maps', 'Plots'] }),
    );
    for (const response of await Promise.all(saves)) expect(response.status, response.text).toBe(200);
    const list = imagesResponse.parse((await browser.get('/api/usermedia/images/')).json());
    expect(list.imageCategories.map((category) => category.category_title).sort()).toEqual(['Maps', 'Plots']);
  });
});
