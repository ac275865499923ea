import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Keeps the documentation true: every repository path it names exists, every file name it puts in
// backticks is a file of the repository, the map stays one page and each area doc a short read.

const root = fileURLToPath(new URL('..', import.meta.url));

/** Top-level folders a repository path in the docs starts with. */
const ROOTS = ['common', 'server', 'web', 'e2e', 'bench', 'scripts', 'docs', '.ci'];
/** Written by the build or by `npm install`, never committed: named in the docs, absent from a fresh clone. */
const GENERATED = ['web/dist/', 'server/dist/', 'web/public/csl/'];
/** Folders whose files are no part of the repository's sources. */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  'dist',
  '.git',
  'data',
  'test-results',
  'playwright-report',
  '.vite',
]);

const MAP = 'docs/architecture.md';
const MAP_MAX_LINES = 200;
const AREA_MAX_LINES = 300;

function docFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** A path as the docs write it: from the repository's root, with forward slashes. */
function fromRoot(path: string): string {
  return relative(root, path).split('\\').join('/');
}

function repositoryFiles(folder = root): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      const generated = GENERATED.includes(`${fromRoot(path)}/`);
      if (!SKIPPED_FOLDERS.has(entry.name) && !generated) files.push(...repositoryFiles(path));
    } else {
      files.push(fromRoot(path));
    }
  }
  return files;
}

/** Everything in the text that reads as a path from the repository's root, e.g. `server/src/ws/plugin.ts`. */
function repositoryPaths(text: string): string[] {
  const pattern = new RegExp(
    `(?<![\\w./~-])((?:${ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[^\\s\`'"(),;|]*)`,
    'g',
  );
  return [...text.matchAll(pattern)].map((match) => match[1].replace(/[.:]+$/, ''));
}

/** Inline code that names a source file without its folder, e.g. `rights.ts` or `collab/review.ts`. */
function fileNamesInCode(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/`([^`\n]+)`/g)) {
    const code = match[1];
    if (!/^[\w./-]+\.(ts|tsx|css|js|mjs|html)$/.test(code)) continue;
    if (ROOTS.some((r) => code.startsWith(`${r}/`))) continue;
    names.push(code);
  }
  return names;
}

/** The part of a path before its first placeholder (`<name>`, `*`, `${...}`), cut back to a folder when needed. */
function withoutPlaceholder(path: string): string {
  const at = path.search(/[<*{$[]/);
  if (at < 0) return path;
  return path.slice(0, path.lastIndexOf('/', at) + 1);
}

const docs = docFiles();
const texts = new Map(docs.map((doc) => [doc, readFileSync(join(root, doc), 'utf8')]));

describe('the documentation', () => {
  it('reads the paths in prose, code and trees alike', () => {
    expect(
      repositoryPaths('see `server/src/ws/plugin.ts`, and web/src/pages/<area>/ (or common/src/api).'),
    ).toEqual(['server/src/ws/plugin.ts', 'web/src/pages/<area>/', 'common/src/api']);
    expect(repositoryPaths('GET /api/documents/:id/ and https://example.org/web/x')).toEqual([]);
    expect(fileNamesInCode('`rights.ts`, `collab/review.ts`, `server/src/x.ts`, `a.b`')).toEqual([
      'rights.ts',
      'collab/review.ts',
    ]);
  });

  it('names only repository paths that exist', () => {
    const missing: string[] = [];
    for (const [doc, text] of texts) {
      for (const path of repositoryPaths(text)) {
        const checked = withoutPlaceholder(path);
        if (GENERATED.some((generated) => checked.startsWith(generated))) continue;
        if (!existsSync(join(root, checked))) missing.push(`${doc}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('puts in backticks only file names the repository has', () => {
    const files = repositoryFiles();
    const missing: string[] = [];
    for (const [doc, text] of texts) {
      for (const name of fileNamesInCode(text)) {
        if (!files.some((file) => file === name || file.endsWith(`/${name}`)))
          missing.push(`${doc}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('keeps the map on one page and each area doc short', () => {
    const tooLong: string[] = [];
    for (const [doc, text] of texts) {
      if (doc === 'README.md') continue;
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      const limit = doc === MAP ? MAP_MAX_LINES : AREA_MAX_LINES;
      if (lines > limit) tooLong.push(`${doc}: ${lines} lines (at most ${limit})`);
    }
    expect(tooLong).toEqual([]);
  });

  it('sends the reader to no file outside the repository', () => {
    const outside = [...texts]
      .filter(([, text]) => /\.\.\/shared|shared\/spec\//.test(text))
      .map(([doc]) => doc);
    expect(outside).toEqual([]);
  });

  it('is pointed to by the README', () => {
    expect(texts.get('README.md')).toContain('Read `docs/architecture.md` first');
    expect(texts.has(MAP)).toBe(true);
  });
});
