import type { Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { apiCall, createUser, expect, loginAs, test } from '../fixtures';
import { useOwnServer } from '../own-server';

// Issue 20's fault test against the real thing: a browser types while its network is cut at
// random points and the server process is restarted twice. Every keystroke must reach the
// server's document exactly once. The cuts follow a seeded generator: FAULT_SEED replays a run.

const body = (page: Page) => page.locator('.doc-richtext_part[data-part-id="body"] p').first();

/** A small seeded generator (Park and Miller's minimal standard), so that a failure can be replayed. */
function seeded(seed: number): () => number {
  let state = seed % 2147483647 || 1;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

test.describe('with a server of its own', () => {
  test.describe.configure({ mode: 'serial' });
  const own = useOwnServer(45);

  test('1,000 keystrokes, the network cut at random points, the server restarted twice: nothing lost, nothing twice', async ({
    browser,
  }) => {
    // Two stops and starts of a server process on a busy machine, besides the typing.
    test.setTimeout(120_000);
    const seed = Number(process.env.FAULT_SEED) || Date.now();
    test.info().annotations.push({ type: 'FAULT_SEED', description: String(seed) });
    const random = seeded(seed);

    const user = await createUser({}, own.env);
    const page = await own.page(browser);
    await loginAs(page, user, '/');
    const created = await apiCall(page, documentsApi.create, { path: '/' });
    const { id } = (await created.json()) as { id: number };
    await page.goto(`/document/${id}`);
    await body(page).click();

    // Numbered words: a lost or repeated piece shows in the comparison at once.
    const text = Array.from({ length: 200 }, (_, index) => String(index).padStart(4, '0')).join(' ');
    const restarts = new Set([Math.floor(text.length / 3), Math.floor((2 * text.length) / 3)]);
    let offline = false;
    let typed = 0;
    while (typed < text.length) {
      const piece = text.slice(typed, typed + 1 + Math.floor(random() * 40));
      const next = typed + piece.length;
      if (random() < 0.25) {
        offline = !offline;
        await page.context().setOffline(offline);
      }
      const restart = [...restarts].find((at) => at >= typed && at < next);
      if (restart !== undefined) {
        restarts.delete(restart);
        await own.stop();
        await page.keyboard.type(piece);
        await own.start();
      } else await page.keyboard.type(piece);
      typed = next;
    }
    await page.context().setOffline(false);
    await expect(page.locator('.editor-save-state')).toHaveAttribute('data-saved', 'true', {
      timeout: 30_000,
    });
    await expect(body(page)).toHaveText(text);

    // What the server has, read by a page of its own.
    const reader = await own.page(browser);
    await loginAs(reader, user, `/document/${id}`);
    await expect(body(reader)).toHaveText(text);
  });
});
