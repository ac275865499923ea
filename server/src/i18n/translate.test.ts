import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES } from '@scriptorium/common/i18n/languages';
import { describe, expect, it } from 'vitest';
import { translator } from './translate';

const LOCALES = path.resolve(import.meta.dirname, '../../../common/src/i18n/locales');

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out[prefix + key] = value;
    else Object.assign(out, flatten(value, `${prefix}${key}.`));
  }
  return out;
}

function load(language: string): Record<string, string> {
  return flatten(JSON.parse(readFileSync(path.join(LOCALES, language, 'server.json'), 'utf8')) as Tree);
}

/** Plural forms differ per language (French has _many, English does not): compare base keys. */
const baseKey = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

describe('server messages', () => {
  const english = load('en');

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated', (language) => {
    const messages = load(language);
    expect(new Set(Object.keys(messages).map(baseKey))).toEqual(new Set(Object.keys(english).map(baseKey)));
    for (const [key, value] of Object.entries(english)) {
      expect(messages[key], `${language}: ${key}`).toBeDefined();
      // Placeholders must survive translation.
      const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(placeholders(messages[key]), `${language}: ${key}`).toEqual(placeholders(value));
      if (/[a-z]{4,}/i.test(value.replace(/\{\{\w+\}\}/g, '').replace(/npm run [\w -]+/g, ''))) {
        expect(messages[key], `${language}: ${key} is still English`).not.toBe(value);
      }
    }
  });

  it('has the spec texts in English', () => {
    expect(english['form.required']).toBe('This field is required.');
    expect(english['form.invalidEmail']).toBe('This is not a valid email.');
    expect(english['errors.notReady']).toBe('The server is currently being updated. Please wait.');
  });

  it('picks plural forms per language, including pt-br', () => {
    expect(translator('server', 'en')('login.locked', { count: 1 })).toMatch(/in 1 minute\.$/);
    expect(translator('server', 'pt-br')('login.locked', { count: 15 })).toBe(
      'Tentativas de login malsucedidas demais. Tente novamente em 15 minutos.',
    );
    expect(translator('server', 'bg')('login.locked', { count: 2 })).toContain('2 минути');
  });
});
