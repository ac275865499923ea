import { describe, expect, it } from 'vitest';
import { computeWindow, scrollTopToReveal } from './windowing';

/** Rows of 40 px under a 400 px viewport, five rows of overscan. */
const windowOf40pxRows = (count: number, scrollTop: number) =>
  computeWindow({ count, rowHeight: 40, scrollTop, viewportHeight: 400, overscan: 5 });

describe('computeWindow', () => {
  it('renders the visible rows plus overscan at the top of the list', () => {
    expect(
      computeWindow({ count: 10000, rowHeight: 40, scrollTop: 0, viewportHeight: 400, overscan: 5 }),
    ).toEqual({
      start: 0,
      end: 16,
      before: 0,
      after: (10000 - 16) * 40,
    });
  });

  it('follows the scroll position', () => {
    const window = windowOf40pxRows(10000, 40000);
    expect(window.start).toBe(995);
    expect(window.end).toBe(1016);
    expect(window.before).toBe(995 * 40);
    expect(window.before + (window.end - window.start) * 40 + window.after).toBe(10000 * 40);
  });

  it('stops at the end of the list', () => {
    const window = windowOf40pxRows(100, 3800);
    expect(window.end).toBe(100);
    expect(window.after).toBe(0);
  });

  it('handles an empty list', () => {
    expect(computeWindow({ count: 0, rowHeight: 40, scrollTop: 0, viewportHeight: 400 })).toEqual({
      start: 0,
      end: 0,
      before: 0,
      after: 0,
    });
  });
});

describe('scrollTopToReveal', () => {
  it('scrolls up to a row above the viewport', () => {
    expect(scrollTopToReveal(2, 40, 400, 200)).toBe(80);
  });
  it('scrolls down just enough for a row below the viewport', () => {
    expect(scrollTopToReveal(20, 40, 0, 200)).toBe(21 * 40 - 200);
  });
  it('keeps the position when the row is visible', () => {
    expect(scrollTopToReveal(3, 40, 80, 200)).toBe(80);
  });
});
