import { describe, expect, it } from 'vitest';
import {
  canDeleteAccount,
  isAvatarFileName,
  isValidUsername,
  passwordResetRequest,
  profileData,
} from './user';

describe('account rules', () => {
  it('accepts only png, jpg and jpeg avatars', () => {
    expect(isAvatarFileName('me.png')).toBe(true);
    expect(isAvatarFileName('Me.JPG')).toBe(true);
    expect(isAvatarFileName('me.jpeg')).toBe(true);
    expect(isAvatarFileName('me.gif')).toBe(false);
    expect(isAvatarFileName('png')).toBe(false);
    expect(isAvatarFileName('me.svg')).toBe(false);
  });

  it('deletes an account only with the own username and a password', () => {
    expect(canDeleteAccount('ada', 'ada', 'x')).toBe(true);
    expect(canDeleteAccount('ada', 'Ada', 'x')).toBe(false);
    expect(canDeleteAccount('ada', 'ada', '')).toBe(false);
  });

  it('allows letters, digits and .+-_ in usernames, but no @ (an e-mail address is no username)', () => {
    expect(isValidUsername('ada.lovelace+1_x_y-z')).toBe(true);
    expect(isValidUsername('ada@example.org')).toBe(false);
    expect(isValidUsername('Ådå')).toBe(true);
    expect(isValidUsername('ada lovelace')).toBe(false);
    expect(isValidUsername('ada/1')).toBe(false);
    expect(isValidUsername('')).toBe(false);
    expect(isValidUsername('a'.repeat(151))).toBe(false);
  });

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
