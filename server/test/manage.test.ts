import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { describe, expect, it } from 'vitest';
import { runManage } from '../src/cli/run-manage';
import { ENGINES, useServer } from './harness';

const execFileAsync = promisify(execFile);
const MANAGE = path.resolve(import.meta.dirname, '../src/cli/manage.ts');

/** The arguments of `createuser` with a username, an address, 'pw' as password and `more`. */
const createuser = (username: string, email: string, ...more: string[]) => [
  'createuser',
  '--username',
  username,
  '--email',
  email,
  '--password',
  'pw',
  ...more,
];

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe.each(ENGINES)('npm run manage (%s)', (engine) => {
  const server = useServer(engine);

  /** The real CLI in its own process (about 3 s each: used for the end-to-end cases only). */
  async function manageProcess(...args: string[]): Promise<Outcome> {
    try {
      const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', MANAGE, ...args], {
        env: { ...process.env, ...server().env, LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      return error as Outcome;
    }
  }

  /** The same command code in this process, output captured. */
  async function manage(
    args: string[],
    env: Record<string, string> = { LANG: 'en_US.UTF-8' },
  ): Promise<Outcome> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runManage(args, {
      env: { ...server().env, ...env },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  it('creates an active user with a verified primary e-mail who can log in', async () => {
    const result = await manageProcess(
      'createuser',
      '--username',
      'Noether',
      '--email',
      'Emmy@Math.example',
      '--password',
      's3cret-enough',
      '--first-name',
      'Emmy',
      '--last-name',
      'Noether',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Created user "Noether" \(id \d+\)\.\n$/);

    const browser = server().client();
    const login = await browser.call(userApi.login, {
      login: 'emmy@math.example',
      password: 's3cret-enough',
    });
    expect(login.status).toBe(200);
    const body = (await browser.call(baseApi.configuration)).json<{ user: Record<string, unknown> }>();
    expect(body.user).toMatchObject({
      username: 'Noether',
      name: 'Emmy Noether',
      is_staff: false,
      emails: [{ address: 'Emmy@Math.example', primary: true, verified: true }],
    });
  }, 60_000);

  it('exits with 1 and a clear message for a taken username', async () => {
    await server().buildUser({ username: 'taken', email: 'taken@example.org' });
    const result = await manageProcess(...createuser('TAKEN', 'new@example.org'));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('The username "TAKEN" is already taken.\n');
  }, 60_000);

  it('creates staff users', async () => {
    const result = await manage(createuser('admin', 'admin@example.org', '--staff'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Created staff user "admin" \(id \d+\)\.$/);
    const row = await server()
      .ctx.db.selectFrom('users')
      .select('is_staff')
      .where('username', '=', 'admin')
      .executeTakeFirst();
    expect(row?.is_staff).toBe(1);
  });

  it('refuses an e-mail address another user has, case-insensitively, and a malformed one', async () => {
    await server().buildUser({ email: 'Owner@Example.org' });
    const taken = await manage(createuser('fresh', 'owner@example.ORG'));
    expect(taken.code).toBe(1);
    expect(taken.stderr).toBe('The e-mail address "owner@example.ORG" already belongs to a user.');
    const malformed = await manage(createuser('fresh', 'not-an-address'));
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toBe('"not-an-address" is not a valid e-mail address.');
    const row = await server()
      .ctx.db.selectFrom('users')
      .select('id')
      .where('username', '=', 'fresh')
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('explains missing options, unknown options and unknown commands', async () => {
    const missing = await manage(['createuser', '--username', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('The option --email is required.');
    expect(missing.stderr).toContain('npm run manage -- createuser --username NAME');
    const unknownOption = await manage(['createuser', '--colour', 'blue']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain('--colour');
    const unknown = await manage(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command: frobnicate');
  });

  it('creates and replaces flat pages from a file', async () => {
    const file = path.join(server().env.DATA_DIR, 'terms.html');
    writeFileSync(file, '<h2>Our terms</h2><p>Be kind.</p>');
    const replaced = await manage([
      'flatpage',
      '--url',
      '/terms/',
      '--title',
      'Terms of use',
      '--content-file',
      file,
    ]);
    expect(replaced).toEqual({ code: 0, stdout: 'Replaced the page /terms/.', stderr: '' });
    const page = await server().client().call(baseApi.flatpage, { url: '/terms/' });
    expect(page.json()).toEqual({ title: 'Terms of use', content: '<h2>Our terms</h2><p>Be kind.</p>' });

    const created = await manage([
      'flatpage',
      '--url',
      'imprint',
      '--title',
      'Imprint',
      '--content-file',
      file,
    ]);
    expect(created.stdout).toBe('Created the page /imprint/.');
    expect((await server().client().call(baseApi.flatpage, { url: '/imprint/' })).status).toBe(200);

    const unreadable = await manage([
      'flatpage',
      '--url',
      '/x/',
      '--title',
      'X',
      '--content-file',
      `${file}.missing`,
    ]);
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toMatch(/^Could not read .*terms\.html\.missing: /);
  });

  it('speaks the operator language (LC_ALL, LC_MESSAGES, LANG)', async () => {
    const german = await manage(['frobnicate'], { LC_ALL: 'de_DE.UTF-8' });
    expect(german.stderr).toContain('Unbekannter Befehl: frobnicate');
    const brazilian = await manage(['frobnicate'], { LANG: 'pt_BR.UTF-8' });
    expect(brazilian.stderr).toContain('Comando desconhecido: frobnicate');
  });
});
