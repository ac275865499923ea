import { LANGUAGES } from '@scriptorium/common/i18n/languages';
import { readLocale } from '@scriptorium/common/i18n/locale-files';
import { describe, expect, it } from 'vitest';

// Completeness and translation of every namespace: common/src/i18n/locales.test.ts.
describe('components.json locales', () => {
  it('has the spec texts as English values', () => {
    const english = readLocale('en', 'components');
    expect(english.get('feedbackThanks')).toBe('Thank you for your report!');
    expect(english.get('cachedVersion')).toBe('You are viewing a cached version of this page.');
  });

  it.each(LANGUAGES)(
    'keeps the visible feedback tab text inside its accessible name in %s (WCAG 2.5.3)',
    (language) => {
      const texts = readLocale(language, 'components');
      expect(texts.get('feedbackTitle')?.toLocaleLowerCase()).toContain(
        texts.get('feedbackTab')?.toLocaleLowerCase(),
      );
    },
  );
});
