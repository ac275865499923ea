import { describe, expect, it } from 'vitest';
import { RequestWindows } from './token-rate';

describe('RequestWindows', () => {
  it('allows max requests per window and tells how long to wait after that', () => {
    const windows = new RequestWindows(2, 60_000);
    expect(windows.take(1, 1_000)).toBe(0);
    expect(windows.take(1, 2_000)).toBe(0);
    expect(windows.take(1, 31_000)).toBe(30);
    // Another token has its own window.
    expect(windows.take(2, 31_000)).toBe(0);
    // A new window starts when the old one ends.
    expect(windows.take(1, 61_000)).toBe(0);
  });
});
