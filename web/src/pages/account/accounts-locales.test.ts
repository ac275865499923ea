import { LANGUAGES } from '@scriptorium/common/i18n/languages';
import { describe, expect, it } from 'vitest';

const files = import.meta.glob<Record<string, unknown>>(
  '../../../../common/src/i18n/locales/*/accounts.json',
  {
    eager: true,
    import: 'default',
  },
);

function flatten(tree: Record<string, unknown>, prefix = ''): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') result.set(path, value);
    else for (const [k, v] of flatten(value as Record<string, unknown>, path)) result.set(k, v);
  }
  return result;
}

function locale(language: string): Map<string, string> {
  const entry = Object.entries(files).find(([file]) => file.includes(`/locales/${language}/accounts.json`));
  if (!entry) throw new Error(`accounts.json missing for ${language}`);
  return flatten(entry[1]);
}

/** Words some languages rightly write as English does. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  fr: ['profile.actions'],
  it: ['profile.password', 'profile.account'],
};

describe('accounts.json locales', () => {
  const english = locale('en');

  it('has the spec texts as English values', () => {
    const spec: Record<string, string> = {
      'passwordReset.submit': 'Reset My Password',
      'passwordReset.done': 'Instructions emailed',
      'changePassword.done': 'Password reset',
      'changePassword.mismatch': 'You must type the same password each time.',
      'confirmEmail.thanks': 'Thanks for verifying!',
      'confirmEmail.canLogin': 'You can now log in.',
      'confirmEmail.verified': 'Email verified!',
      'confirmEmail.expired':
        'This e-mail confirmation link expired or is invalid. Please try to open another account.',
      'profile.allRequired': 'All fields are required!',
      'profile.confirmNew': 'Please confirm the new password!',
      'profile.passwordNotChanged': 'The password could not be changed!',
      'profile.passwordNetworkError': 'The password could not be changed',
      'profile.passwordChanged': 'The password has been changed.',
      'profile.emailRequired': 'New email address is required!',
      'profile.confirmationSent': 'Confirmation e-mail sent to: {{email}}',
      'profile.emailAddError': 'The email could not be added!',
      'profile.emailDeleted': 'Email successfully deleted!',
      'profile.emailDeleteError': 'The email could not be deleted!',
      'profile.primaryUpdated': 'The primary email has been updated.',
      'profile.primaryError': 'The email could not be set to be primary email.',
      'profile.socialDeleted': '{{provider}} account successfully deleted!',
      'profile.socialDeleteError': 'The account could not be deleted!',
      'profile.saveError': 'Could not save profile data',
      'profile.avatarError': 'Could not update profile avatar',
      'profile.avatarDeleteError': 'Could not delete avatar',
      'profile.deleteStaff': 'Staff accounts have to be deleted through the admin interface.',
      'profile.deleteWrongPassword': 'Password incorrect.',
      'profile.deleteFailed': 'Could not delete user account.',
    };
    for (const [key, text] of Object.entries(spec)) expect(english.get(key), key).toBe(text);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('is complete and translated in %s', (language) => {
    const other = locale(language);
    expect([...other.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of english) {
      const placeholders = (s: string) => [...s.matchAll(/\{\{\w+\}\}/g)].map((m) => m[0]).sort();
      expect(placeholders(other.get(key) ?? ''), `${language} ${key}`).toEqual(placeholders(text));
      if (!SAME_AS_ENGLISH[language]?.includes(key))
        expect(other.get(key), `${language} ${key}`).not.toBe(text);
    }
  });
});
