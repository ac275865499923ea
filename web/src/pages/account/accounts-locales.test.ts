import { readLocale } from '@scriptorium/common/i18n/locale-files';
import { describe, expect, it } from 'vitest';

// Completeness and translation of every namespace: common/src/i18n/locales.test.ts.
describe('accounts.json locales', () => {
  const english = readLocale('en', 'accounts');

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
});
