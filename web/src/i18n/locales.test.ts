import { LANGUAGES } from '@scriptorium/common/i18n/languages';
import { describe, expect, it } from 'vitest';

const files = import.meta.glob<Record<string, unknown>>('../../../common/src/i18n/locales/*/web.json', {
  eager: true,
  import: 'default',
});

function locale(language: string): Record<string, unknown> {
  const entry = Object.entries(files).find(([path]) => path.includes(`/locales/${language}/web.json`));
  if (!entry) throw new Error(`web.json missing for ${language}`);
  return entry[1];
}

/** "a.b.c" -> value, for every leaf. */
function flatten(tree: Record<string, unknown>, prefix = ''): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') result.set(path, value);
    else if (typeof value === 'object' && value !== null) {
      for (const [child, text] of flatten(value as Record<string, unknown>, path)) result.set(child, text);
    } else throw new Error(`${path} is neither text nor a group`);
  }
  return result;
}

/**
 * Values that are rightly spelled as in English: proper names, and the few words the language
 * really writes the same way (Italian uses "Password"; Spanish writes "Error").
 */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  es: ['pages.notFound.heading'],
  it: ['login.password'],
};
const PROPER_NAMES = ['Scriptorium', 'MathLive', 'ProseMirror', 'citeproc-js'];

/** Whether an English text has a word of four or more letters once placeholders and proper names are removed. */
function hasRealWords(text: string): boolean {
  let rest = text.replace(/\{\{[^}]*\}\}/g, ' ');
  for (const name of PROPER_NAMES) rest = rest.replaceAll(name, ' ');
  return /\p{L}{4,}/u.test(rest);
}

describe('web.json locales', () => {
  const english = flatten(locale('en'));

  it('has the spec texts as English values', () => {
    expect(english.get('form.required')).toBe('This field is required.');
    expect(english.get('pages.update.text')).toBe('The server is currently being updated. Please wait.');
    expect(english.get('pages.notFound.title')).toBe('Page not found');
    expect(english.get('pages.notFound.heading')).toBe('Error 404');
    expect(english.get('login.forgot')).toBe('Forgot Password');
    expect(english.get('login.remember')).toBe('Remember me');
    expect(english.get('footer.terms')).toBe('Terms and Conditions');
    expect(english.get('footer.privacy')).toBe('Privacy policy');
    expect(english.get('login.verifyTitle')).toBe('Verify Your E-mail Address');
    expect(english.get('pages.disconnected.reload')).toBe('Reload page');
  });

  for (const language of LANGUAGES.filter((code) => code !== 'en')) {
    it(`${language} has exactly the English keys`, () => {
      expect([...flatten(locale(language)).keys()].sort()).toEqual([...english.keys()].sort());
    });

    it(`${language} is translated, not copied from English`, () => {
      const translated = flatten(locale(language));
      const allowed = new Set(SAME_AS_ENGLISH[language] ?? []);
      const copies = [...english]
        .filter(([key, text]) => hasRealWords(text) && !allowed.has(key) && translated.get(key) === text)
        .map(([key]) => key);
      expect(copies).toEqual([]);
    });

    it(`${language} keeps every {{placeholder}} of the English text`, () => {
      const translated = flatten(locale(language));
      for (const [key, text] of english) {
        const placeholders = (value: string) => (value.match(/\{\{[^}]*\}\}/g) ?? []).sort();
        expect(placeholders(translated.get(key) ?? ''), key).toEqual(placeholders(text));
      }
    });
  }
});
