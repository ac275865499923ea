import { readFileSync } from 'node:fs';
import type { CslJson } from '../bibliography/citation-render';
import { type CompactNode, expandNode } from '../bibliography/csl-compact';
import type { ExportInput } from '../export/model';

/** A file of the CSL styles and locales the web app bundles (web/public/csl), parsed. */
function asset(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../../web/public/csl/${name}.json`, import.meta.url), 'utf8'));
}

/** A bundled CSL style (`apa`, `ieee`, ...) in US English, as an export's input takes it (tests, benches). */
export function bundledCsl(name: string): NonNullable<ExportInput['csl']> {
  return {
    name,
    style: expandNode(asset(`styles/${name}`) as CompactNode) as unknown as CslJson,
    locales: { 'en-US': asset('locale-data/en-US') as CslJson },
    locale: 'en-US',
  };
}
