import type { Browser, Page } from '@playwright/test';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { apiCall, expect, loginAs, sharedDocument, type TestUser, test } from '../fixtures';

// Accounts are made by the CLI on the server's SQLite file: one test after the other.
test.describe.configure({ mode: 'serial' });

const CACHED = 'You are viewing a cached version of this page.';
const KEPT = 'You are offline. Your changes are kept on this device and sent when you are back online.';

const body = (page: Page) => page.locator('.doc-richtext_part[data-part-id="body"] p').first();
const saved = (page: Page) =>
  expect(page.locator('.editor-save-state')).toHaveAttribute('data-saved', 'true', { timeout: 20_000 });

/** Waits until the service worker controls the page (its precache is complete by then). */
async function offlineReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
  });
}

/** Steps of this page's offline queue records for a document (what IndexedDB holds right now). */
function queuedSteps(page: Page, id: number): Promise<number> {
  return page.evaluate(
    (documentId) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('scriptorium-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('queues').objectStore('queues').getAll();
          all.onsuccess = () =>
            resolve(
              (all.result as { documentId: number; steps: unknown[] }[])
                .filter((record) => record.documentId === documentId)
                .reduce((sum, record) => sum + record.steps.length, 0),
            );
        };
      }),
    id,
  );
}

/** The titles of the overview rows this page's local database holds for `username` (spec 3). */
function cachedTitles(page: Page, username: string): Promise<string[]> {
  return page.evaluate(
    (name) =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open(name);
        open.onerror = () => resolve([]);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('document_list')) return resolve([]);
          const all = db.transaction('document_list').objectStore('document_list').getAll();
          all.onsuccess = () => resolve((all.result as { title: string }[]).map((row) => row.title));
        };
      }),
    username,
  );
}

async function newDocument(page: Page): Promise<number> {
  const created = await apiCall(page, documentsApi.create, { path: '/' });
  return ((await created.json()) as { id: number }).id;
}

/** Ann's document shared with Bob (both contacts), each logged in in a context of their own. */
/**
 * Ann's document shared with Bob (both contacts), open in an editor of each (own browser contexts);
 * Ann has typed `text` into it, saved, and Bob sees it.
 */
async function bothEditing(browser: Browser, text: string) {
  const shared = await sharedDocument(
    browser,
    'write',
    { firstName: 'Ann', lastName: 'Offline' },
    { firstName: 'Bob', lastName: 'Online' },
  );
  const { annPage, bobPage, id } = shared;
  await annPage.goto(`/document/${id}`);
  await bobPage.goto(`/document/${id}`);
  await body(annPage).click();
  await annPage.keyboard.type(text);
  await saved(annPage);
  await expect(body(bobPage)).toHaveText(text);
  return { ...shared, annContext: annPage.context(), bobContext: bobPage.context() };
}

/** The document opened by its user in a browser context of its own (nothing cached), checked, closed. */
async function inFreshBrowser(
  browser: Browser,
  user: TestUser,
  id: number,
  check: (page: Page) => Promise<void>,
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, user, `/document/${id}`);
  await check(page);
  await context.close();
}

/**
 * Ann and Bob work apart on the shared document that holds `text`: Ann offline (`annWrites`, her
 * editor clicked first), Bob online meanwhile (`bobWrites`, saved); then Ann is back online.
 */
async function workApart(
  browser: Browser,
  text: string,
  annWrites: (page: Page) => Promise<void>,
  bobWrites: (page: Page) => Promise<void>,
) {
  const editing = await bothEditing(browser, text);
  await editing.annContext.setOffline(true);
  await expect(editing.annPage.getByText(KEPT)).toBeVisible();
  await body(editing.annPage).click();
  await annWrites(editing.annPage);
  await body(editing.bobPage).click();
  await bobWrites(editing.bobPage);
  await saved(editing.bobPage);
  await editing.annContext.setOffline(false);
  return editing;
}

/** The caret at the end of the paragraph, its text selected back to the start. */
async function selectParagraph(page: Page) {
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
}

/** A new document of the user's, open in a browser context of its own, `text` typed and saved. */
async function writtenDocument(browser: Browser, user: TestUser, text: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, user, '/');
  const id = await newDocument(page);
  await page.goto(`/document/${id}`);
  await body(page).click();
  await page.keyboard.type(text);
  await saved(page);
  return { context, page, id };
}

/** A fresh browser of the user opens the document and reads `text`: the server has it. */
async function expectOnServer(browser: Browser, user: TestUser, id: number, text: string) {
  await inFreshBrowser(browser, user, id, async (check) => {
    await expect(body(check)).toHaveText(text);
  });
}

test('offline, a reload shows the overview, bibliography, contacts and a document from the cache; edits wait and are sent', async ({
  browser,
  user,
}) => {
  test.setTimeout(90_000);
  const { context, page, id } = await writtenDocument(browser, user, 'Written online.');
  await page.locator('.doc-title').click();
  await page.keyboard.type('Field notes');
  await saved(page);
  // Visit the screens once online: their data lands in the local database.
  await page.goto('/');
  await expect(page.getByRole('row').filter({ hasText: 'Field notes' })).toBeVisible();
  // The row is written to the local database after it is drawn: leaving the page before that
  // write is done would abort it.
  await expect.poll(() => cachedTitles(page, user.username)).toContain('Field notes');
  await page.goto('/bibliography/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/user/contacts/');
  await expect(page.getByText('No contacts available')).toBeVisible();
  await offlineReady(page);

  await context.setOffline(true);
  await page.goto('/');
  await expect(page.getByText(CACHED)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Field notes' })).toBeVisible();
  // What needs the server is disabled; a new document is made on this device (next scenario).
  await expect(page.getByRole('button', { name: 'New document' })).toBeEnabled();
  await page.goto('/bibliography/');
  await expect(page.getByText(CACHED)).toBeVisible();
  await page.goto('/user/contacts/');
  await expect(page.getByText(CACHED)).toBeVisible();
  await expect(page.getByText('No contacts available')).toBeVisible();

  // The document opens from this device and takes edits.
  await page.goto(`/document/${id}`);
  await expect(body(page)).toHaveText('Written online.');
  await expect(page.getByText(KEPT)).toBeVisible();
  await body(page).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Written offline.');
  await expect.poll(() => queuedSteps(page, id)).toBeGreaterThan(0);
  // A reload offline keeps them.
  await page.reload();
  await expect(body(page)).toHaveText('Written online. Written offline.');

  await context.setOffline(false);
  await saved(page);
  await expect.poll(() => queuedSteps(page, id)).toBe(0);
  // The server has them: a fresh browser sees the text.
  await expectOnServer(browser, user, id, 'Written online. Written offline.');
  await context.close();
});

/** Ann's 500 characters appended offline and Bob's 300 typed at the start meanwhile. */
const ANN_TEXT = ` ${'ann '.repeat(125)}`.slice(0, 500);
const BOB_TEXT = `${'bob '.repeat(75)}`.slice(0, 300);

/**
 * Ann and Bob work apart (workApart) on the shared document that holds `text`; once Ann is back
 * online, `afterwards` checks what both see. One test each.
 */
const WORK_APART: {
  title: string;
  timeout: number;
  text: string;
  annWrites: (page: Page) => Promise<void>;
  bobWrites: (page: Page) => Promise<void>;
  afterwards: (annPage: Page, bobPage: Page) => Promise<void>;
}[] = [
  {
    title: '500 steps offline in one tab, 300 online by a co-author: after reconnecting both see all text',
    timeout: 150_000,
    text: 'Start.',
    // Ann appends 500 characters at the end; Bob types 300 at the start.
    annWrites: async (ann) => {
      await ann.keyboard.press('End');
      await ann.keyboard.type(ANN_TEXT);
    },
    bobWrites: async (bob) => {
      await bob.keyboard.press('Home');
      await bob.keyboard.type(BOB_TEXT);
    },
    afterwards: async (annPage, bobPage) => {
      await saved(annPage);
      const expected = `${BOB_TEXT}Start.${ANN_TEXT}`;
      await expect(body(annPage)).toHaveText(expected, { timeout: 20_000 });
      await expect(body(bobPage)).toHaveText(expected, { timeout: 20_000 });
    },
  },
  {
    title:
      "a large divergence: the offline work is shown as suggestions on the co-author's version, and accepted",
    timeout: 90_000,
    text: 'Middle.',
    // More than 50 steps on each side that cannot fold: Ann writes at both ends by turns.
    annWrites: async (ann) => {
      for (let i = 0; i < 30; i++) {
        await ann.keyboard.press('Home');
        await ann.keyboard.type('a');
        await ann.keyboard.press('End');
        await ann.keyboard.type('z');
      }
    },
    // Bob's 60 steps meanwhile: bold on and off, each a command of its own (typed characters may
    // reach the editor several to one step on a busy machine).
    bobWrites: async (bob) => {
      await selectParagraph(bob);
      for (let i = 0; i < 60; i++) await bob.keyboard.press('Control+b');
    },
    afterwards: async (annPage, bobPage) => {
      await expect(annPage.getByTestId('editor-merge-notice')).toContainText(
        'are shown as suggestions on top of',
      );
      await saved(annPage);
      for (const page of [annPage, bobPage]) {
        await expect(body(page)).toHaveText(`${'a'.repeat(30)}Middle.${'z'.repeat(30)}`);
        await expect
          .poll(async () => (await body(page).locator('.insertion').allTextContents()).join(''))
          .toBe(`${'a'.repeat(30)}${'z'.repeat(30)}`);
      }
      // Bob, a writer, accepts them all: plain text for both.
      await bobPage.getByRole('button', { name: 'Accept all', exact: true }).click();
      await saved(bobPage);
      await expect(body(annPage).locator('.insertion')).toHaveCount(0);
      await expect(body(annPage)).toHaveText(`${'a'.repeat(30)}Middle.${'z'.repeat(30)}`);
    },
  },
  {
    title: 'an offline change the merge cannot place is suggested again, and the offline version can be read',
    timeout: 60_000,
    text: 'Shared sentence.',
    // Ann makes the sentence bold offline; Bob deletes it meanwhile.
    annWrites: async (ann) => {
      await selectParagraph(ann);
      await ann.keyboard.press('Control+b');
      await expect(body(ann).locator('strong')).toHaveText('Shared sentence.');
    },
    bobWrites: async (bob) => {
      await selectParagraph(bob);
      await bob.keyboard.press('Backspace');
    },
    afterwards: async (annPage, bobPage) => {
      const notice = annPage.getByTestId('editor-merge-notice');
      await expect(notice).toContainText(
        'could not be placed in the current version: the text it changed is suggested again where it stood.',
      );
      await saved(annPage);
      // Not dropped: Ann's bold sentence stands again as her suggestion, for both of them.
      for (const page of [annPage, bobPage]) {
        await expect(body(page).locator('.insertion')).toHaveText('Shared sentence.');
        await expect(body(page).locator('strong')).toHaveText('Shared sentence.');
      }
      // Bob rejects it: his deletion stands.
      await bobPage
        .locator('.review-card', { hasText: 'inserted text' })
        .getByRole('button', { name: 'Reject' })
        .click();
      await saved(bobPage);
      await expect(body(annPage)).toHaveText('');
      await notice.getByRole('button', { name: 'Show my offline version' }).click();
      await expect(annPage.getByRole('dialog', { name: 'Your offline version' })).toContainText(
        'Shared sentence.',
      );
    },
  },
];

for (const { title, timeout, text, annWrites, bobWrites, afterwards } of WORK_APART) {
  test(title, async ({ browser }) => {
    test.setTimeout(timeout);
    const { annPage, bobPage, annContext, bobContext } = await workApart(browser, text, annWrites, bobWrites);
    await afterwards(annPage, bobPage);
    await annContext.close();
    await bobContext.close();
  });
}

test('a document created offline is written, kept over a reload, and created on the server once when back online', async ({
  browser,
  user,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, user, '/');
  await offlineReady(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText(CACHED)).toBeVisible();
  await page.getByRole('button', { name: 'New document' }).click();
  await expect(page).toHaveURL(/\/document\/-\d+$/);
  const tempId = Number(new URL(page.url()).pathname.split('/').pop());
  await page.locator('.doc-title').click();
  await page.keyboard.type('Written on a train');
  await body(page).click();
  await page.keyboard.type('No network since Lyon.');
  await expect.poll(() => queuedSteps(page, tempId)).toBeGreaterThan(0);
  // A reload offline keeps it, and the overview lists it.
  await page.reload();
  await expect(body(page)).toHaveText('No network since Lyon.');
  await page.goto('/');
  await page.locator(`a[href="/document/${tempId}"]`).click();
  await expect(body(page)).toHaveText('No network since Lyon.');

  await context.setOffline(false);
  // Created on the server: the page moves to the real id and shows the text from the server.
  await expect(page).toHaveURL(/\/document\/\d+$/, { timeout: 20_000 });
  await expect(body(page)).toHaveText('No network since Lyon.');
  await saved(page);
  expect(await queuedSteps(page, tempId)).toBe(0);
  const listed = (await (await apiCall(page, documentsApi.list)).json()) as {
    documents: { id: number; title: string }[];
  };
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  expect(listed.documents.filter((doc) => doc.title === 'Written on a train').map((doc) => doc.id)).toEqual([
    id,
  ]);
  await inFreshBrowser(browser, user, id, async (check) => {
    await expect(body(check)).toHaveText('No network since Lyon.');
    await expect(check.locator('.doc-title')).toHaveText('Written on a train');
  });
  await context.close();
});

test('a tab closed offline: reopened online, its queued text is sent', async ({ browser, user }) => {
  test.setTimeout(60_000);
  const { context, page, id } = await writtenDocument(browser, user, 'Before the tunnel.');
  await context.setOffline(true);
  await page.keyboard.type(' In the tunnel.');
  await expect.poll(() => queuedSteps(page, id)).toBeGreaterThan(0);
  await page.close();

  await context.setOffline(false);
  const reopened = await context.newPage();
  await reopened.goto(`/document/${id}`);
  await expect(body(reopened)).toHaveText('Before the tunnel. In the tunnel.');
  await saved(reopened);
  await expectOnServer(browser, user, id, 'Before the tunnel. In the tunnel.');
  await context.close();
});
