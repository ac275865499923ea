import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A locale namespace's texts, as the browser specs read them from common's locale files. */
export type Texts = Record<string, unknown>;

export function localeTexts(language: string, namespace: string): Texts {
  const file = path.resolve(import.meta.dirname, `../common/src/i18n/locales/${language}/${namespace}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Texts;
}

/** A text of the namespace by its dotted key, with {{placeholders}} filled in. */
export function text(texts: Texts, key: string, values: Record<string, string | number> = {}): string {
  // Keys may hold dots themselves ('log.actions.settings.update' is actions['settings.update']).
  let node: unknown = texts;
  let rest = key;
  while (typeof node === 'object' && node !== null && rest) {
    const record = node as Texts;
    if (rest in record) {
      node = record[rest];
      rest = '';
    } else {
      const [head, ...tail] = rest.split('.');
      node = record[head];
      rest = tail.join('.');
    }
  }
  if (typeof node !== 'string' || rest) throw new Error(`no text ${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
}
