import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/* biber (TeX Live) as the reference reading of BibLaTeX data: see toolAvailable('biber'). */

/** One entry as biber writes it in tool mode: type, key and raw field values (upper-case names). */
export interface BiberEntry {
  type: string;
  key: string;
  fields: Record<string, string>;
}

/**
 * Reads biber's BibTeX output: `@TYPE{key,` then `  FIELD = {value},` (values may span lines) or
 * `  FIELD = MACRO,` (given as `@MACRO`).
 */
export function parseBiberOutput(text: string): BiberEntry[] {
  const entries: BiberEntry[] = [];
  const header = /^@([A-Za-z]+)\{([^,\n]*),\s*$/gm;
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const entry: BiberEntry = { type: match[1].toLowerCase(), key: match[2], fields: {} };
    let pos = header.lastIndex;
    for (;;) {
      const field = /\s*([A-Z0-9_+-]+) = /y;
      field.lastIndex = pos;
      const found = field.exec(text);
      if (!found) break;
      const name = found[1].toLowerCase();
      let end = field.lastIndex;
      if (text[end] !== '{') {
        // biber writes a value that is only a @string macro as the macro's name.
        end = text.indexOf(',\n', end);
        entry.fields[name] = `@${text.slice(field.lastIndex, end)}`;
        pos = end + 1;
        continue;
      }
      let depth = 1;
      for (end++; end < text.length && depth > 0; end++) {
        if (text[end] === '\\') end++;
        else if (text[end] === '{') depth++;
        else if (text[end] === '}') depth--;
      }
      entry.fields[name] = text.slice(field.lastIndex + 1, end - 1);
      pos = end + 1; // the comma after the value
    }
    header.lastIndex = pos;
    entries.push(entry);
  }
  return entries;
}

/** Runs biber in tool mode on a .bib text (crossref and xdata resolved) and reads what it wrote. */
export function biberReading(bib: string): BiberEntry[] {
  const dir = mkdtempSync(join(tmpdir(), 'biber-'));
  try {
    writeFileSync(join(dir, 'in.bib'), bib);
    execFileSync(
      'biber',
      ['--tool', '--output-resolve', '--output-format=bibtex', '--output-file=out.bib', 'in.bib'],
      { cwd: dir, stdio: 'ignore' },
    );
    return parseBiberOutput(readFileSync(join(dir, 'out.bib'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
