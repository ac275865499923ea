import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/languages';

const localeDir = path.resolve(import.meta.dirname, '../i18n/locales');
const read = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(localeDir, language, 'ws.json'), 'utf8'));

describe('the ws namespace', () => {
  const english = read('en');

  it('holds the spec texts in English', () => {
    expect(english.disconnected).toBe('Disconnected. Attempting to reconnect...');
    expect(english.unsavedWarning).toBe('Warning! Some data is unsaved');
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    'is complete and translated in %s',
    (language) => {
      const translated = read(language);
      expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(translated)) {
        expect(text.trim(), key).not.toBe('');
        expect(text, key).not.toBe(english[key]);
      }
    },
  );
});
