import { readLocale } from '@scriptorium/common/i18n/locale-files';
import { describe, expect, it } from 'vitest';

// Completeness and translation of every namespace: common/src/i18n/locales.test.ts.
describe('web.json locales', () => {
  const english = readLocale('en', 'web');

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
});
