import { readLocale } from '@scriptorium/common/i18n/locale-files';
import { describe, expect, it } from 'vitest';

/**
 * A namespace's English texts that the spec gives word for word (tests only). Completeness and
 * translation of every namespace: common/src/i18n/locales.test.ts.
 */
export function describeSpecTexts(namespace: string, spec: Record<string, string>, sections = ''): void {
  describe(`${namespace}.json locales`, () => {
    it(`has the spec texts as English values${sections ? ` (${sections})` : ''}`, () => {
      const english = readLocale('en', namespace);
      for (const [key, text] of Object.entries(spec)) expect(english.get(key), key).toBe(text);
    });
  });
}
