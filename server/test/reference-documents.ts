import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { expect } from 'vitest';
import { run } from './export-tools';

/** Export files (reference documents) for the template export tests: pandoc's own, one style changed. */

export const FONT = 'Gentium Distinct';
export const COLOUR = '7B2D26';

/** pandoc's own reference document of `kind` with Heading 1 in our font and colour. */
export async function referenceWithHeading(kind: 'docx' | 'odt', folder: string): Promise<Uint8Array> {
  const file = path.join(folder, `reference.${kind}`);
  await run('pandoc', ['-o', file, '--print-default-data-file', `reference.${kind}`]);
  const files = unzipSync(new Uint8Array(await readFile(file)));
  if (kind === 'docx') {
    const styles = strFromU8(files['word/styles.xml']);
    const heading = `<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="Heading 1"/><w:basedOn w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:rFonts w:ascii="${FONT}" w:hAnsi="${FONT}"/><w:color w:val="${COLOUR}"/><w:sz w:val="36"/></w:rPr></w:style>`;
    const changed = styles.replace(
      /<w:style w:type="paragraph" w:styleId="Heading1">[\s\S]*?<\/w:style>/,
      heading,
    );
    expect(changed).not.toBe(styles);
    files['word/styles.xml'] = strToU8(changed);
  } else {
    const styles = strFromU8(files['styles.xml']);
    const heading = `<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="1" style:class="text"><style:text-properties fo:font-family="'${FONT}'" fo:color="#${COLOUR.toLowerCase()}" fo:font-weight="bold"/></style:style>`;
    const changed = styles.replace(/<style:style style:name="Heading_20_1"[\s\S]*?<\/style:style>/, heading);
    expect(changed).not.toBe(styles);
    files['styles.xml'] = strToU8(changed);
  }
  return zipSync(files);
}
