import { readLocale } from '@scriptorium/common/i18n/locale-files';
import { describe, expect, it } from 'vitest';

// Completeness and translation of every namespace: common/src/i18n/locales.test.ts.
describe('contacts.json locales', () => {
  const english = readLocale('en', 'contacts');

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
});
