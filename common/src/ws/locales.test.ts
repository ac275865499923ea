import { describe, expect, it } from 'vitest';
import { readLocale } from '../i18n/locale-files';

// Completeness and translation of every namespace: common/src/i18n/locales.test.ts.
describe('the ws namespace', () => {
  it('holds the spec texts in English', () => {
    const english = readLocale('en', 'ws');
    expect(english.get('disconnected')).toBe('Disconnected. Attempting to reconnect...');
    expect(english.get('unsavedWarning')).toBe('Warning! Some data is unsaved');
  });
});
