import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { test as base, expect, type Page } from '@playwright/test';
import { e2eServerEnv } from './server-env';

const run = promisify(execFile);

export interface TestUser {
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** Makes a real account the way an operator does: with `npm run manage -- createuser`. */
export async function createUser(
  options: { staff?: boolean; firstName?: string; lastName?: string } = {},
  env: NodeJS.ProcessEnv = e2eServerEnv(),
) {
  const id = randomBytes(4).toString('hex');
  const user: TestUser = {
    username: `user_${id}`,
    email: `user_${id}@example.org`,
    password: `pw-${randomBytes(6).toString('hex')}`,
    firstName: options.firstName ?? 'Ada',
    lastName: options.lastName ?? `Tester ${id}`,
  };
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
    await page.request.get('/api/base/configuration/');
    cookie = (await page.context().cookies()).find((c) => c.name === 'csrftoken');
  }
  if (!cookie) throw new Error('The server set no csrftoken cookie');
  return cookie.value;
}

/** Posts form-encoded with the CSRF header, sharing the page's cookies (as the app does). */
export async function apiPost(page: Page, path: string, form: Record<string, string>) {
  const response = await page.request.post(path, { form, headers: { 'X-CSRFToken': await csrfToken(page) } });
  expect(response.ok(), `${path} answered ${response.status()}`).toBeTruthy();
  return response;
}

/** Logs in through the API (the login page itself has its own spec) and opens `path`. */
export async function loginAs(page: Page, user: TestUser, path = '/') {
  await apiPost(page, '/api/user/login/', { login: user.username, password: user.password });
  await page.goto(path);
}

/** Switches the interface language the way the language selector does. */
export async function setLanguage(page: Page, language: string) {
  await apiPost(page, '/api/i18n/setlang/', { language });
}

export const test = base.extend<{ user: TestUser }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  user: async ({}, use) => {
    await use(await createUser());
  },
});
export { expect };
