import { describe, expect, it } from 'vitest';
import { accountScope, failureDelay } from './login-throttle';

describe('failureDelay', () => {
  it('doubles per failure and stops at 2 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => failureDelay(n, 250))).toEqual([250, 500, 1000, 2000, 2000, 2000]);
  });
  it('is off with a zero base', () => {
    expect(failureDelay(3, 0)).toBe(0);
  });
});

describe('accountScope', () => {
  it('keys known accounts by id and unknown logins by a digest of the lower-cased login', () => {
    expect(accountScope(7, 'Anna')).toBe('account:7');
    expect(accountScope(undefined, ' Nobody@Example.org ')).toBe(
      accountScope(undefined, 'nobody@example.org'),
    );
    expect(accountScope(undefined, 'nobody')).toMatch(/^login:[0-9a-f]{40}$/);
  });
});
