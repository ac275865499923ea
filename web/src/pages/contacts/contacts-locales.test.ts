import { LANGUAGES } from '@scriptorium/common/i18n/languages';
import { describe, expect, it } from 'vitest';

const files = import.meta.glob<Record<string, unknown>>(
  '../../../../common/src/i18n/locales/*/contacts.json',
  {
    eager: true,
    import: 'default',
  },
);

function locale(language: string): Map<string, string> {
  const entry = Object.entries(files).find(([path]) => path.includes(`/locales/${language}/contacts.json`));
  if (!entry) throw new Error(`contacts.json missing for ${language}`);
  return flatten(entry[1]);
}

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

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The keys a language needs: English's, with each plural in the language's own categories. */
function expectedKeys(english: Map<string, string>, language: string): string[] {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of english.keys()) {
    if (PLURAL.test(key)) {
      const base = key.replace(PLURAL, '');
      for (const category of categories) keys.add(`${base}_${category}`);
    } else keys.add(key);
  }
  return [...keys].sort();
}

/** Words these languages really write as English does. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  de: ['columns.name'],
  fr: ['title', 'columns.type', 'columns.actions', 'types.user', 'invitePage.title'],
};

describe('contacts.json locales', () => {
  const english = locale('en');

  it('has the spec texts as English values (sections 2.4 and 8)', () => {
    expect(english.get('empty')).toBe('No contacts available');
    expect(english.get('noResults')).toBe('No contacts found');
    expect(english.get('loadError')).toBe('Could not obtain contacts list');
    expect(english.get('menu.invite')).toBe('Invite contact');
    expect(english.get('menu.deleteSelected')).toBe('Delete selected');
    expect(english.get('inviteDialog.placeholder')).toBe('e-mail address or username');
    expect(english.get('inviteErrors.1')).toBe('You cannot add yourself to your contacts!');
    expect(english.get('inviteErrors.2')).toBe('This person is already in your contacts!');
    expect(english.get('inviteErrors.3')).toBe('Invalid email!');
    expect(english.get('respond')).toBe('Respond');
    expect(english.get('waitingInvites')).toBe('Other users have requested to connect with you...');
    expect(english.get('goToContacts')).toBe('Go to contacts');
  });

  for (const language of LANGUAGES.filter((code) => code !== 'en')) {
    const translated = locale(language);

    it(`${language} has the English keys, with its own plural forms`, () => {
      expect([...translated.keys()].sort()).toEqual(expectedKeys(english, language));
    });

    it(`${language} is translated, not copied from English`, () => {
      const allowed = new Set(SAME_AS_ENGLISH[language] ?? []);
      const copies = [...english]
        .filter(([key, text]) => !allowed.has(key) && translated.get(key) === text)
        .map(([key]) => key);
      expect(copies).toEqual([]);
    });

    it(`${language} keeps every {{placeholder}} of the English text`, () => {
      const placeholders = (value: string) => (value.match(/\{\{[^}]*\}\}/g) ?? []).sort();
      for (const [key, text] of english) {
        const same = PLURAL.test(key) ? key.replace(PLURAL, '_other') : key;
        expect(placeholders(translated.get(same) ?? ''), `${language} ${key}`).toEqual(placeholders(text));
      }
    });
  }
});
