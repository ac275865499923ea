import { readLocale } from '@scriptorium/common/i18n/locale-files';
import { describe, expect, it } from 'vitest';

// Completeness and translation of every namespace: common/src/i18n/locales.test.ts.
describe('bibliography.json locales', () => {
  it('has the spec texts (section 8) as English values', () => {
    const english = readLocale('en', 'bibliography');
    const spec: Record<string, string> = {
      loadError: 'Could not obtain bibliography data',
      notUpdated: 'The bibliography could not be updated',
      categoriesNotUpdated: 'The categories could not be updated',
      notDeleted: 'The bibliography item(s) could not be deleted',
      updated: 'The bibliography has been updated.',
      categoriesUpdated: 'The categories have been updated',
      deleted: 'The bibliography item(s) have been deleted',
      offline: 'You are currently offline. Please try again when you are back online.',
    };
    for (const [key, text] of Object.entries(spec)) expect(english.get(key), key).toBe(text);
  });
});
