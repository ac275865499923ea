import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Debian's office tools for tests and benchmarks that check our import against files we did not
 * write. A test needing a tool runs when the tool is there, and always with REQUIRE_SERVICES=1
 * (where a missing tool then fails it); otherwise it is skipped with a warning.
 */
export function toolAvailable(name: 'pandoc' | 'soffice' | 'biber'): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
  if (!found && process.env.REQUIRE_SERVICES !== '1')
    console.warn(`${name} not installed: its tests are skipped.`);
  return found || process.env.REQUIRE_SERVICES === '1';
}

function inTempDir<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-office-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pandoc converts Markdown to a file of `format` (docx, odt). */
export function pandocFrom(markdown: string, format: 'docx' | 'odt', extraArgs: string[] = []): Uint8Array {
  return inTempDir((dir) => {
    const input = join(dir, 'in.md');
    const output = join(dir, `out.${format}`);
    writeFileSync(input, markdown);
    execFileSync('pandoc', [input, '-o', output, ...extraArgs], { stdio: 'pipe' });
    return new Uint8Array(readFileSync(output));
  });
}

/** Pandoc reads an office file into Markdown (a baseline and a cross-check). */
export function pandocToMarkdown(bytes: Uint8Array, format: 'docx' | 'odt'): string {
  return inTempDir((dir) => {
    const input = join(dir, `in.${format}`);
    writeFileSync(input, bytes);
    return execFileSync('pandoc', [input, '-t', 'markdown'], { encoding: 'utf8' });
  });
}

/** LibreOffice converts a file (e.g. an ODT) to `format` (e.g. docx), headless. */
export function sofficeConvert(bytes: Uint8Array, from: string, to: string): Uint8Array {
  return inTempDir((dir) => {
    const input = join(dir, `in.${from}`);
    writeFileSync(input, bytes);
    // A profile of its own: a user's running LibreOffice or another test must not share it.
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--headless',
        '--convert-to',
        to,
        '--outdir',
        dir,
        input,
      ],
      { stdio: 'pipe', timeout: 120_000 },
    );
    return new Uint8Array(readFileSync(join(dir, `in.${to}`)));
  });
}

/**
 * epubcheck's report on an EPUB file (it exits non-zero when it finds errors: read the report).
 * Asynchronous: Java takes seconds, and a test that blocked its event loop that long would reuse
 * a keep-alive socket the server had closed meanwhile (ECONNRESET on its next request).
 */
export async function epubcheckReport(file: string): Promise<string> {
  const jar = execFileSync('sh', ['-c', 'readlink -f "$(command -v epubcheck)"'], {
    encoding: 'utf8',
  }).trim();
  // Debian's epubcheck is an executable jar: run it with java so no binfmt handler is needed.
  const child = spawn('java', ['-jar', jar, file], { timeout: 170_000 });
  let report = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    report += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    report += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve());
  });
  return report;
}
