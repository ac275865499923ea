import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages';
import { namespaces, readLocale } from './locale-files';

const PLURAL = /_(zero|one|two|few|many|other)$/;

const PROPER_NAMES = [
  'Scriptorium',
  'MathLive',
  'ProseMirror',
  'citeproc-js',
  'BibLaTeX',
  'BibTeX',
  'CSL-JSON',
  'JSON',
  'EndNote',
  'PubMed',
  'Citavi',
  // LaTeX classes and publishers (the templates' LaTeX class names).
  '(article)',
  'acmart',
  'sigconf',
  'elsarticle',
  'llncs',
  'IEEEtran',
  'Elsevier',
  'Springer',
  'LNCS',
];

/**
 * Whether an English text is a phrase (two or more words of four letters or more, names and
 * placeholders aside) that a translation must not repeat. Single words rightly coincide across
 * languages (Person, Organisation, Volume, Actions, Manual).
 */
function isPhrase(text: string): boolean {
  let rest = text.replace(/\{\{[^}]*\}\}/g, ' ');
  for (const name of PROPER_NAMES) rest = rest.replaceAll(name, ' ');
  return (rest.match(/\p{L}{4,}/gu) ?? []).length >= 2;
}

/** A plural form may leave out the count ("Delete this entry?"); other placeholders must stay. */
const placeholders = (text: string, plural: boolean) =>
  (text.match(/\{\{[^}]*\}\}/g) ?? [])
    .map((p) => p.replace(/\s/g, ''))
    .filter((p) => !plural || p !== '{{count}}')
    .sort();

/** Every namespace in every language: the English keys, really translated, same placeholders. */
describe.each(namespaces())('the %s namespace', (namespace) => {
  const english = readLocale('en', namespace);

  it.each(LANGUAGES.filter((language) => language !== 'en'))('is complete in %s', (language) => {
    const translated = readLocale(language, namespace);
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    const plain = (keys: Iterable<string>) => [...keys].filter((key) => !PLURAL.test(key)).sort();
    expect(plain(translated.keys())).toEqual(plain(english.keys()));
    // Plurals: each English one exists with at least its "other" form, in the language's categories only.
    for (const key of english.keys()) {
      if (PLURAL.test(key)) expect(translated.has(key.replace(PLURAL, '_other')), key).toBe(true);
    }
    for (const key of translated.keys()) {
      const category = PLURAL.exec(key)?.[1];
      if (category) expect(categories, key).toContain(category);
    }
    for (const [key, text] of translated) expect(text.trim(), key).not.toBe('');
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))('is translated in %s', (language) => {
    const translated = readLocale(language, namespace);
    const copies = [...english]
      .filter(([key, text]) => isPhrase(text) && translated.get(key) === text)
      .map(([key]) => key);
    expect(copies).toEqual([]);
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))('keeps the placeholders in %s', (language) => {
    const translated = readLocale(language, namespace);
    for (const [key, text] of english) {
      const plural = PLURAL.test(key);
      const same = plural && !translated.has(key) ? key.replace(PLURAL, '_other') : key;
      expect(placeholders(translated.get(same) ?? '', plural), `${language} ${key}`).toEqual(
        placeholders(text, plural),
      );
    }
  });
});
