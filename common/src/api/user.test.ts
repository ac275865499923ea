import { describe, expect, it } from 'vitest';
import {
  canDeleteAccount,
  isAvatarFileName,
  isValidUsername,
  passwordResetRequest,
  profileData,
} from './user';

describe('account rules', () => {
  it.each([
    ['me.png', true],
    ['Me.JPG', true],
    ['me.jpeg', true],
    ['me.gif', false],
    ['png', false],
    ['me.svg', false],
  ])('accepts only png, jpg and jpeg avatars: %j is %s', (name, accepted) => {
    expect(isAvatarFileName(name)).toBe(accepted);
  });

  it('deletes an account only with the own username and a password', () => {
    expect(canDeleteAccount('ada', 'ada', 'x')).toBe(true);
    expect(canDeleteAccount('ada', 'Ada', 'x')).toBe(false);
    expect(canDeleteAccount('ada', 'ada', '')).toBe(false);
  });

  it.each([
    ['ada.lovelace+1_x_y-z', true],
    ['ada@example.org', false],
    ['Ådå', true],
    ['ada lovelace', false],
    ['ada/1', false],
    ['', false],
    ['a'.repeat(151), false],
  ])(
    'allows letters, digits and .+-_ in usernames, but no @ (an e-mail address is no username): %j is %s',
    (username, valid) => {
      expect(isValidUsername(username)).toBe(valid);
    },
  );

  it('trims and checks the reset e-mail', () => {
    expect(passwordResetRequest.parse({ email: ' a@example.org ' })).toEqual({ email: 'a@example.org' });
    expect(passwordResetRequest.safeParse({ email: 'nope' }).success).toBe(false);
  });

  it('trims profile names', () => {
    expect(profileData.parse({ user: { username: ' ada ', first_name: ' A ', last_name: '' } })).toEqual({
      user: { username: 'ada', first_name: 'A', last_name: '' },
    });
  });
});
