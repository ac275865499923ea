import { describe, expect, it } from 'vitest';
import { compareContacts, isEmailLike, isValidEmailAddress, splitUserStrings } from './contacts';

describe('splitUserStrings (spec 5, add contact)', () => {
  it('splits on whitespace, commas and semicolons', () => {
    expect(splitUserStrings('ann bob,carl;dora\teve\nfrank')).toEqual([
      'ann',
      'bob',
      'carl',
      'dora',
      'eve',
      'frank',
    ]);
  });

  it('skips empty pieces, also from repeated and leading or trailing separators', () => {
    expect(splitUserStrings(' ,; ann ,, ;; bob ;')).toEqual(['ann', 'bob']);
    expect(splitUserStrings('')).toEqual([]);
    expect(splitUserStrings(' ;,\n ')).toEqual([]);
  });

  it('keeps e-mail addresses whole', () => {
    expect(splitUserStrings('a.b@example.org; c+d@example.com')).toEqual([
      'a.b@example.org',
      'c+d@example.com',
    ]);
  });
});

describe('e-mail checks', () => {
  it('treats strings with an @ as meant for e-mail', () => {
    expect(isEmailLike('ann@example.org')).toBe(true);
    expect(isEmailLike('ann')).toBe(false);
  });

  it('accepts valid addresses and rejects broken ones', () => {
    expect(isValidEmailAddress('ann@example.org')).toBe(true);
    expect(isValidEmailAddress('ann@example')).toBe(false);
    expect(isValidEmailAddress('@example.org')).toBe(false);
    expect(isValidEmailAddress('ann@@example.org')).toBe(false);
    expect(isValidEmailAddress(`${'a'.repeat(250)}@example.org`)).toBe(false);
  });
});

describe('compareContacts', () => {
  it('orders received invites, contacts, sent invites, then by name ignoring case', () => {
    const rows = [
      { type: 'userinvite' as const, name: 'a' },
      { type: 'user' as const, name: 'zed' },
      { type: 'user' as const, name: 'Bea' },
      { type: 'to_userinvite' as const, name: 'y' },
    ];
    expect([...rows].sort((a, b) => compareContacts(a, b, 'en')).map((r) => r.name)).toEqual([
      'y',
      'Bea',
      'zed',
      'a',
    ]);
  });
});
