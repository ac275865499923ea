import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';

/**
 * The real tools the export tests check our files with (pandoc, LibreOffice, epubcheck, LuaLaTeX,
 * pdftotext, Chromium). A test whose tool is missing is skipped, and fails with REQUIRE_SERVICES=1
 * (CI installs the tools: .ci/run).
 */

export const run = promisify(execFile);
const REQUIRED = process.env.REQUIRE_SERVICES === '1';

async function has(command: string): Promise<boolean> {
  try {
    await run('sh', ['-c', `command -v ${command}`]);
    return true;
  } catch {
    return false;
  }
}

async function hasTexFile(name: string): Promise<boolean> {
  try {
    const { stdout } = await run('kpsewhich', [name]);
    return stdout.trim() !== '';
  } catch {
    return false;
  }
}

/**
 * The JATS DTD the JATS export is validated against (Archiving 1.2 with MathML3): not ours to
 * ship, so it is looked for in JATS_DTD_DIR, else in shared/data/jats next to the checkout.
 */
const JATS_DTD = 'JATS-Archiving-1-2-MathML3-DTD';
export const jatsCatalog = (() => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const places = [
    process.env.JATS_DTD_DIR ?? '',
    ...['..', '../..', '../../..'].map((up) => path.join(root, up, 'shared/data/jats', JATS_DTD)),
  ];
  const found = places.find(
    (place) => place && existsSync(path.join(place, 'catalog-jats-v1-2-no-base.xml')),
  );
  return found ? path.join(found, 'catalog-jats-v1-2-no-base.xml') : '';
})();

export const tools = {
  pandoc: await has('pandoc'),
  soffice: await has('soffice'),
  epubcheck: (await has('epubcheck')) && (await has('java')),
  pdftotext: (await has('pdftotext')) && (await has('pdfinfo')),
  lualatex: (await has('lualatex')) && (await has('biber')) && (await hasTexFile('biblatex.sty')),
  chromium: (await has(process.env.CHROMIUM_PATH || '/usr/bin/chromium')) || (await has('chromium')),
  jats: (await has('xmllint')) && jatsCatalog !== '',
};

/** it() when the tools are there; a failing test naming them with REQUIRE_SERVICES=1; else skipped. */
export function withTools(
  names: (keyof typeof tools)[],
  title: string,
  test: () => Promise<void>,
  timeout = 180_000,
) {
  const missing = names.filter((name) => !tools[name]);
  if (!missing.length) it(title, test, timeout);
  else if (REQUIRED)
    it(title, () => {
      throw new Error(`missing tools: ${missing.join(', ')}`);
    });
  else it.skip(`${title} (missing: ${missing.join(', ')})`, test);
}

/** Every file below `folder`, by its path relative to it. */
async function filesBelow(folder: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(folder, file), await readFile(file));
  }
  return files;
}

function contentKey(files: Map<string, Buffer>): string {
  const hash = createHash('sha256');
  for (const name of [...files.keys()].sort())
    hash
      .update(name)
      .update('\0')
      .update(files.get(name) ?? '');
  return hash.digest('hex');
}

/**
 * The files each compile made or changed, by the content of its folder before it. A compile is a
 * function of those files: the PostgreSQL leg of a suite exports the same .tex as the SQLite leg
 * and gets the same result, without LuaLaTeX's 15-30 s a book once more. A folder that differs in
 * any byte (another export, or the next pass with the first pass's .aux) is compiled.
 */
const compiles = new Map<string, Map<string, Buffer>>();

/** lualatex, biber (when biblatex is loaded), lualatex (and once more when asked) in `folder` on document.tex; answers the log. */
export async function compileLatex(folder: string): Promise<string> {
  const before = await filesBelow(folder);
  const key = contentKey(before);
  const made = compiles.get(key);
  if (made) {
    for (const [name, bytes] of made) await writeFile(path.join(folder, name), bytes);
  } else {
    const latex = () =>
      run('lualatex', ['-interaction=nonstopmode', '-halt-on-error', 'document.tex'], {
        cwd: folder,
        timeout: 170_000,
        maxBuffer: 64 << 20,
      });
    await latex();
    // A citeproc-rendered export loads no biblatex: no .bcf, nothing for biber.
    if (
      await readFile(path.join(folder, 'document.bcf')).then(
        () => true,
        () => false,
      )
    )
      await run('biber', ['document'], { cwd: folder });
    await latex();
    // As latexmk does: once more where LaTeX or biblatex asks (biblatex-apa's labels do).
    if (/Rerun to get|Please rerun LaTeX/.test(await readFile(path.join(folder, 'document.log'), 'utf8')))
      await latex();
    const after = await filesBelow(folder);
    compiles.set(key, new Map([...after].filter(([name, bytes]) => !before.get(name)?.equals(bytes))));
  }
  return readFile(path.join(folder, 'document.log'), 'utf8');
}

/**
 * Runs `work` on each item, two at a time: a converter or LaTeX run is one process on one core,
 * and the machine has two (with the other Vitest worker often waiting on a server or a socket).
 */
export async function inPairs<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all([lane(), lane()]);
}

/** Writes a zip's files into `folder`. */
export async function unzipTo(bytes: Uint8Array, folder: string): Promise<void> {
  for (const [name, data] of Object.entries(unzipSync(bytes))) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), data);
  }
}

/** A temporary folder for the tests of this file (or describe block), removed after them; its path. */
export function useTemporaryFolder(prefix: string): () => string {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  return () => folder;
}

/**
 * LibreOffice headless converts `file` to `to` (pdf, docx) into the folder `out`, with its profile
 * in `profile`; the path of the result.
 */
export async function libreOfficeConvert(
  file: string,
  to: string,
  out: string,
  profile: string,
): Promise<string> {
  const [converted] = await libreOfficeConvertAll([file], to, out, profile, 170_000);
  return converted;
}

/** LibreOffice headless converts all `files` to `to` in one run; the paths of the results, in order. */
export async function libreOfficeConvertAll(
  files: string[],
  to: string,
  out: string,
  profile: string,
  timeout = 850_000,
): Promise<string[]> {
  await run(
    'soffice',
    [
      '--headless',
      `-env:UserInstallation=file://${profile}/lo-profile`,
      '--convert-to',
      to,
      '--outdir',
      out,
      ...files,
    ],
    { timeout },
  );
  return files.map((file) => path.join(out, path.basename(file).replace(/\.[a-z]+$/, `.${to}`)));
}

/** Checks each EPUB with epubcheck's own API in one Java process (a JVM per file takes seconds). */
const EPUB_BATCH = `import com.adobe.epubcheck.api.EpubCheck;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;

public class EpubBatch {
  public static void main(String[] files) {
    for (String file : files) {
      StringWriter report = new StringWriter();
      new EpubCheck(new File(file), new PrintWriter(report, true)).doValidate();
      System.out.println("== " + file);
      System.out.println(report);
    }
  }
}
`;

/** epubcheck's report on each of `files`, by file; `folder` holds the batch's source. */
export async function epubcheckBatch(files: string[], folder: string): Promise<Map<string, string>> {
  const source = path.join(folder, 'EpubBatch.java');
  await writeFile(source, EPUB_BATCH);
  const { stdout: jar } = await run('sh', ['-c', 'readlink -f "$(command -v epubcheck)"']);
  const { stdout } = await run('java', ['-cp', jar.trim(), source, ...files], {
    maxBuffer: 256 << 20,
    timeout: 590_000,
  });
  const reports = new Map<string, string>();
  for (const chunk of stdout.split(/^== /m).slice(1)) {
    const newline = chunk.indexOf('\n');
    reports.set(chunk.slice(0, newline), chunk.slice(newline + 1).trim());
  }
  expect([...reports.keys()]).toEqual(files);
  return reports;
}
