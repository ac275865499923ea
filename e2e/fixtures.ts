import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { type Browser, test as base, expect, type Locator, type Page } from '@playwright/test';
import type { AccessRight } from '@scriptorium/common/api/documents';
import { type Endpoint, type EndpointInput, encodeRequest } from '@scriptorium/common/api/endpoint';
import { baseApi, i18nApi } from '@scriptorium/common/api/endpoints/base';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { tsImport } from 'tsx/esm/api';
import type { Db } from '../server/src/db/database';
import { e2eServerEnv } from './server-env';

const run = promisify(execFile);

export interface TestUser {
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

interface UserOptions {
  staff?: boolean;
  firstName?: string;
  lastName?: string;
}

function newUser(options: UserOptions): TestUser {
  const id = randomBytes(4).toString('hex');
  return {
    username: `user_${id}`,
    email: `user_${id}@example.org`,
    password: `pw-${randomBytes(6).toString('hex')}`,
    firstName: options.firstName ?? 'Ada',
    lastName: options.lastName ?? `Tester ${id}`,
  };
}

/**
 * The server's own code for making accounts, loaded with tsx as the server runs it (Playwright's
 * loader does not read the locale JSON the server's modules import). One module, one tsImport:
 * see server-seeding.ts.
 */
type ServerSeeding = typeof import('./server-seeding');

let seeding: Promise<ServerSeeding> | undefined;

function serverSeeding(): Promise<ServerSeeding> {
  seeding ??= tsImport('./server-seeding.ts', import.meta.url) as Promise<ServerSeeding>;
  return seeding;
}

/** One connection per server database, opened on first use, shared by the worker's tests. */
const databases = new Map<string, Db>();

function databaseOf(server: ServerSeeding, env: NodeJS.ProcessEnv): Db {
  const config = server.loadConfig(env);
  const key = `${config.databaseUrl ?? ''}|${config.dataDir}`;
  let db = databases.get(key);
  if (!db) {
    db = server.createDatabase(config).db;
    databases.set(key, db);
  }
  return db;
}

/**
 * Makes a real account as the createuser command does (verified address, pending invites to it
 * claimed), but in this process against the server's database: no process start per test.
 */
export async function createUser(options: UserOptions = {}, env: NodeJS.ProcessEnv = e2eServerEnv()) {
  const user = newUser(options);
  const server = await serverSeeding();
  const db = databaseOf(server, env);
  const row = await server.createUser(
    { db },
    {
      username: user.username,
      email: user.email,
      password: user.password,
      isStaff: options.staff,
      firstName: user.firstName,
      lastName: user.lastName,
      emailVerified: true,
    },
  );
  await server.claimPendingInvitesForEmail(db, row.id, user.email);
  return user;
}

/** Replaces a document's stored content (version 0) before anyone opens it: e.g. an old document. */
export async function writeDocumentContent(
  id: number,
  content: unknown,
  env: NodeJS.ProcessEnv = e2eServerEnv(),
) {
  const db = databaseOf(await serverSeeding(), env);
  await db
    .updateTable('documents')
    .set({ content: JSON.stringify(content), content_version: 0, version: 0 })
    .where('id', '=', id)
    .execute();
}

/** The same account made with `npm run manage -- createuser`, for the spec of that command. */
export async function createUserByCommand(
  options: UserOptions = {},
  env: NodeJS.ProcessEnv = e2eServerEnv(),
) {
  const user = newUser(options);
  const args = ['--import', 'tsx', 'server/src/cli/manage.ts', 'createuser'];
  args.push('--username', user.username, '--email', user.email, '--password', user.password);
  args.push('--first-name', user.firstName, '--last-name', user.lastName);
  if (options.staff) args.push('--staff');
  await run(process.execPath, args, { env });
  return user;
}

async function csrfToken(page: Page): Promise<string> {
  let cookie = (await page.context().cookies()).find((c) => c.name === 'csrftoken');
  if (!cookie) {
    await page.request.get(baseApi.configuration.path);
    cookie = (await page.context().cookies()).find((c) => c.name === 'csrftoken');
  }
  if (!cookie) throw new Error('The server set no csrftoken cookie');
  return cookie.value;
}

/**
 * Calls an endpoint of the common contract with the page's cookies and the CSRF header, encoded as
 * the app's `call` does. The input is loose: specs also send what the app never would.
 */
export async function sendCall(page: Page, target: Endpoint, input: Record<string, unknown> = {}) {
  const encoded = encodeRequest(target, input);
  const headers = { 'X-CSRFToken': await csrfToken(page) };
  const body = encoded.body instanceof URLSearchParams ? encoded.body.toString() : undefined;
  return page.request.fetch(encoded.url, {
    method: encoded.method,
    headers:
      body === undefined ? headers : { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
    data: body,
  });
}

/** sendCall with the input the contract types, failing the test on a non-OK answer. */
export async function apiCall<E extends Endpoint>(page: Page, target: E, input?: EndpointInput<E>) {
  const response = await sendCall(page, target, input);
  expect(response.ok(), `${target.method} ${target.path} answered ${response.status()}`).toBeTruthy();
  return response;
}

/** Logs in through the API (the login page itself has its own spec) and opens `path`. */
export async function loginAs(page: Page, user: TestUser, path = '/') {
  await apiCall(page, userApi.login, { login: user.username, password: user.password });
  await page.goto(path);
}

/** The login form's labels, as the specs that fill it in read them. */
const LOGIN_FORM = {
  en: { login: 'Username or e-mail', password: 'Password', submit: 'Log in' },
  de: { login: 'Benutzername oder E-Mail', password: 'Passwort', submit: 'Anmelden' },
};

/** Fills in the login form shown on the page (in `language`) and submits it. */
export async function fillLogin(page: Page, login: string, password: string, language: 'en' | 'de' = 'en') {
  const labels = LOGIN_FORM[language];
  await page.getByLabel(labels.login).fill(login);
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: labels.submit, exact: true }).last().click();
}

/** Switches the interface language the way the language selector does. */
export async function setLanguage(page: Page, language: string) {
  await apiCall(page, i18nApi.setLanguage, {
    language: language as EndpointInput<typeof i18nApi.setLanguage>['language'],
  });
}

/** A logged-in browser of its own (own cookies), in the given interface language, at `path`. */
export async function loggedInBrowser(browser: Browser, user: TestUser, language: string, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, user, '/');
  if (language !== 'en') await setLanguage(page, language);
  await page.goto(path);
  return { context, page };
}

/** A new staff account, logged in in a browser of its own (as loggedInBrowser) at `path`. */
export async function staffBrowser(browser: Browser, language: string, path: string) {
  const staff = await createUser({ staff: true });
  return { staff, ...(await loggedInBrowser(browser, staff, language, path)) };
}

/** `invitee` (logged in on `inviteePage`) accepts an invitation of the user of `inviterPage`: they are contacts. */
export async function becomeContacts(inviterPage: Page, inviteePage: Page, invitee: TestUser): Promise<void> {
  await apiCall(inviterPage, contactsApi.invite, { user_string: invitee.username });
  const list = await apiCall(inviteePage, contactsApi.list);
  const { contacts: received } = (await list.json()) as { contacts: { id: number; type: string }[] };
  const invites = received.filter((contact) => contact.type === 'to_userinvite').map(({ id }) => ({ id }));
  await apiCall(inviteePage, contactsApi.accept, { invites });
}

/** The contact id, in the contacts of the page's user, of the user contact whose name contains `name`. */
export async function contactIdOf(page: Page, name = ''): Promise<number> {
  const list = await apiCall(page, contactsApi.list);
  const { contacts } = (await list.json()) as { contacts: { id: number; type: string; name: string }[] };
  return Number(contacts.find((contact) => contact.type === 'user' && contact.name.includes(name))?.id);
}

/**
 * Two users who are contacts, made through the contacts API (its own spec covers its screen), each
 * logged in on a page of a browser context of its own, at /.
 */
export async function contactPair(
  browser: Browser,
  first: UserOptions,
  second: UserOptions,
): Promise<{ ann: TestUser; bob: TestUser; annPage: Page; bobPage: Page }> {
  const ann = await createUser(first);
  const bob = await createUser(second);
  const annPage = await (await browser.newContext()).newPage();
  const bobPage = await (await browser.newContext()).newPage();
  await loginAs(annPage, ann, '/');
  await loginAs(bobPage, bob, '/');
  await becomeContacts(annPage, bobPage, bob);
  return { ann, bob, annPage, bobPage };
}

/**
 * A contactPair, and a new document of the first user (in /) shared with the second with `right`
 * through the API (sharing has its own spec).
 */
export async function sharedDocument(
  browser: Browser,
  right: AccessRight,
  first: UserOptions,
  second: UserOptions,
): Promise<{ ann: TestUser; bob: TestUser; annPage: Page; bobPage: Page; id: number }> {
  const pair = await contactPair(browser, first, second);
  const created = await apiCall(pair.annPage, documentsApi.create, { path: '/' });
  const { id } = (await created.json()) as { id: number };
  await apiCall(pair.annPage, documentsApi.accessSave, {
    id,
    access: [{ holder_type: 'user', holder_id: await contactIdOf(pair.annPage), rights: right }],
  });
  return { ...pair, id };
}

export const test = base.extend<{ user: TestUser; closeOwnContexts: void }, { serverCode: ServerSeeding }>({
  // The browser is the worker's, so Playwright closes only the context it made itself: the ones a
  // scenario opens for a second user (contactPair, loggedInBrowser, ...) stayed open with their
  // live pages for the rest of the run. Seventy pages at the end of a run loaded the machine until
  // the late specs timed out.
  closeOwnContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      for (const context of browser.contexts()) if (!before.has(context)) await context.close();
    },
    { auto: true },
  ],
  // Loading the server's code takes seconds (over 20 on a loaded machine): worker setup, paid
  // once per worker before its first test. Paid inside a test's time, it failed that test, the
  // worker was replaced, and the new worker's first test paid it again: one slow start failed
  // every test after it in the file.
  serverCode: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
    async ({}, use) => {
      await use(await serverSeeding());
    },
    { scope: 'worker', auto: true },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  user: async ({}, use) => {
    await use(await createUser());
  },
});
/**
 * ProseMirror takes a selection made with the keys from the document's selectionchange event,
 * which the browser fires a little after the key. Pressed at machine speed, the next shortcut can
 * come first and act on the old selection. This waits until a selectionchange carrying `text` has
 * been dispatched: ProseMirror's listener, added earlier, has then seen it too.
 */
export async function selectionSeen(page: Page, text: string) {
  await expect
    .poll(() => page.evaluate(() => (window as { seenSelection?: string }).seenSelection))
    .toBe(text);
}

/** Records the text of every selectionchange, for selectionSeen. */
export async function watchSelection(page: Page) {
  await page.evaluate(() =>
    document.addEventListener('selectionchange', () => {
      (window as { seenSelection?: string }).seenSelection = String(document.getSelection());
    }),
  );
}

/** The attribute `name` of every element `locator` matches, in document order (null where one has none). */
export function attributesOf(locator: Locator, name: string): Promise<(string | null)[]> {
  return locator.evaluateAll(
    (elements, attribute) => elements.map((element) => element.getAttribute(attribute)),
    name,
  );
}

/**
 * The button of a design-system Select (web/src/components/form/select.tsx), found by its label:
 * react-aria names the button with the shown choice followed by the label ("Light Theme").
 */
export function selectButton(scope: Page | Locator, label: string | RegExp): Locator {
  const name =
    typeof label === 'string' ? new RegExp(`(^|\\s)${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : label;
  return scope.getByRole('button', { name });
}

/** The choice a Select shows (what a native select's value was). */
export function selectValue(scope: Page | Locator, label: string | RegExp): Locator {
  return selectButton(scope, label).locator('.select-value');
}

/** Opens the Select labelled `label` and clicks its option `option` (the list closes). */
export async function chooseOption(scope: Page | Locator, label: string | RegExp, option: string | RegExp) {
  const page = 'page' in scope && typeof scope.page === 'function' ? scope.page() : (scope as Page);
  await selectButton(scope, label).click();
  const list = page.getByRole('listbox');
  await list.getByRole('option', { name: option, exact: true }).click();
  await expect(list).toHaveCount(0);
}

export { expect };
