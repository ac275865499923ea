import { LANGUAGES } from '@scriptorium/common/i18n/languages';
import { describe, expect, it } from 'vitest';

const files = import.meta.glob<Record<string, unknown>>(
  '../../../common/src/i18n/locales/*/components.json',
  {
    eager: true,
    import: 'default',
  },
);

function locale(language: string): Record<string, string> {
  const entry = Object.entries(files).find(([path]) => path.includes(`/locales/${language}/components.json`));
  if (!entry) throw new Error(`components.json missing for ${language}`);
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry[1])) {
    if (typeof value !== 'string') throw new Error(`${language}: ${key} is not text`);
    result[key] = value;
  }
  return result;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();
}

/** Words the language really writes as English does. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  de: ['feedbackTab'],
  fr: ['notifications'],
};

describe('components.json locales', () => {
  const english = locale('en');

  it('has the spec texts as English values', () => {
    expect(english.feedbackThanks).toBe('Thank you for your report!');
  });

  for (const language of LANGUAGES) {
    describe(language, () => {
      const texts = locale(language);

      it('has exactly the English keys, none empty, with the same placeholders', () => {
        expect(Object.keys(texts).sort()).toEqual(Object.keys(english).sort());
        for (const [key, text] of Object.entries(texts)) {
          expect(text.trim(), `${language}.${key}`).not.toBe('');
          expect(placeholders(text), `${language}.${key}`).toEqual(placeholders(english[key]));
        }
      });

      it('is really translated', () => {
        if (language === 'en') return;
        const allowed = SAME_AS_ENGLISH[language] ?? [];
        for (const [key, text] of Object.entries(texts)) {
          if (allowed.includes(key)) continue;
          expect(text, `${language}.${key}`).not.toBe(english[key]);
        }
      });

      it('keeps the visible feedback tab text inside its accessible name (WCAG 2.5.3)', () => {
        expect(texts.feedbackTitle.toLocaleLowerCase()).toContain(texts.feedbackTab.toLocaleLowerCase());
      });
    });
  }
});
