import { LANGUAGES } from '@scriptorium/common/i18n/languages';
import { readLocale } from '@scriptorium/common/i18n/locale-files';
import { describe, expect, it } from 'vitest';
import { TOOLBAR_MARKS } from './rich-text-commands';

// Completeness and translation of every namespace: common/src/i18n/locales.test.ts.
describe('richtext.json locales', () => {
  it('names the toolbar buttons in English', () => {
    const english = readLocale('en', 'richtext');
    expect(english.get('mark.em')).toBe('Italic');
    expect(english.get('mark.nocase')).toBe('Keep capitalisation');
    expect(english.get('withShortcut')).toBe('{{label}} ({{shortcut}})');
  });

  it.each(LANGUAGES)('has a name for every toolbar mark, each different, in %s', (language) => {
    const texts = readLocale(language, 'richtext');
    const names = TOOLBAR_MARKS.map((mark) => texts.get(`mark.${mark}`));
    expect(names.every(Boolean)).toBe(true);
    expect(new Set(names).size).toBe(TOOLBAR_MARKS.length);
  });
});
