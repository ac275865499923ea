import { describe, expect, it } from 'vitest';
import { looksLikeEmail } from './email-rule';

describe('looksLikeEmail', () => {
  it('accepts plain addresses and refuses obvious mistakes', () => {
    expect(looksLikeEmail('ada@example.org')).toBe(true);
    expect(looksLikeEmail('ada@example')).toBe(false);
    expect(looksLikeEmail('ada example@x.org')).toBe(false);
    expect(looksLikeEmail('')).toBe(false);
  });
});
