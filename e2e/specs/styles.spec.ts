import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { firstParagraph } from '../editor';
import { apiCall, expect, loginAs, test } from '../fixtures';

// The built index.html carries the style sheets it used to link as <style> elements, each with a
// disabled <link> that marks it as present (web/vite.config.ts, inlineEntryStyles). Vite's loader
// of the lazy screens adds a sheet they need unless such a <link> is in the page; a second copy
// of these rules, later in the cascade, would override the screens' own.

declare global {
  interface Window {
    __violations: string[];
  }
}

test('the first sheets are in the page: never fetched, never added again by a lazy screen; no CSP violation', async ({
  page,
  user,
}) => {
  const fetchedSheets: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') fetchedSheets.push(new URL(request.url()).pathname);
  });
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__violations.push(`${event.violatedDirective} ${event.sourceFile}:${event.columnNumber}`);
    });
  });

  await page.goto('/');
  await expect(page.getByLabel('Username or e-mail')).toBeVisible();
  const inlined = await page
    .locator('style[data-sheet]')
    .evaluateAll((styles) => styles.map((style) => style.getAttribute('data-sheet') ?? ''));
  expect(inlined.length).toBeGreaterThan(0);
  const markers = await page
    .locator('link[rel="stylesheet"][disabled]')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
  expect(markers).toEqual(inlined);

  // The overview, then the editor: lazy screens whose preload lists name the inlined sheets.
  await loginAs(page, user, '/');
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  const created = (await (await apiCall(page, documentsApi.create, { title: 'Styled' })).json()) as {
    id: number;
  };
  await page.goto(`/document/${created.id}`);
  await expect(firstParagraph(page)).toBeVisible();

  const enabledSheets = await page
    .locator('link[rel="stylesheet"]:not([disabled])')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
  expect(enabledSheets.filter((sheet) => inlined.includes(sheet))).toEqual([]);
  expect(fetchedSheets.filter((sheet) => inlined.includes(sheet))).toEqual([]);
  // The editor's own sheets did load: lazy screens still get theirs.
  expect(enabledSheets.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => window.__violations)).toEqual([]);
});

test("on a phone, the overview's footer waits for the rows and never moves (no layout shift of it)", async ({
  page,
  user,
}) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await loginAs(page, user, '/user/profile/');
  for (let index = 1; index <= 25; index++)
    await apiCall(page, documentsApi.create, { title: `Paper ${index}` });
  // Every layout shift of the page from its start, with the elements that moved.
  await page.addInitScript(() => {
    const shifts: string[] = [];
    (window as unknown as { __shifts: string[] }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { sources?: { node?: Node }[] })[]) {
        for (const source of entry.sources ?? []) {
          const node = source.node;
          shifts.push(node instanceof Element ? node.tagName.toLowerCase() : String(node?.nodeName));
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // The list answers only when the test lets it: the page is seen while its rows load.
  let answer: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  await page.route(`**${documentsApi.list.path}*`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  await expect(page.getByRole('grid', { name: 'Documents and folders' })).toHaveAttribute(
    'aria-busy',
    'true',
  );
  await expect(page.locator('.app-footer')).toBeHidden();
  answer();
  await expect(page.getByRole('link', { name: 'Paper 25' })).toBeVisible();
  await expect(page.locator('.app-footer')).toBeAttached();
  await page.locator('.app-footer').scrollIntoViewIfNeeded();
  await expect(page.getByRole('link', { name: 'Terms and Conditions' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts)).not.toContain(
    'footer',
  );
});
