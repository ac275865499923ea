import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Test support: reads the locale files of common/src/i18n/locales in Node. */
const LOCALE_DIR = path.resolve(import.meta.dirname, 'locales');

/** The namespaces, from the English folder (every language has the same files). */
export function namespaces(): string[] {
  return readdirSync(path.join(LOCALE_DIR, 'en'))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/** "a.b.c" -> text, for every leaf of one namespace in one language. */
export function readLocale(language: string, namespace: string): Map<string, string> {
  const tree = JSON.parse(readFileSync(path.join(LOCALE_DIR, language, `${namespace}.json`), 'utf8'));
  return flatten(tree, '', `${language}/${namespace}`);
}

function flatten(tree: Record<string, unknown>, prefix: string, file: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const keyPath = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') result.set(keyPath, value);
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [child, text] of flatten(value as Record<string, unknown>, keyPath, file))
        result.set(child, text);
    } else throw new Error(`${file}: ${keyPath} is neither text nor a group`);
  }
  return result;
}
