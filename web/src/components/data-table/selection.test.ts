import { describe, expect, it } from 'vitest';
import { allVisibleSelected, selectVisible } from './selection';

describe('select all over the visible rows', () => {
  it('adds or removes only the visible rows', () => {
    const selected = new Set(['hidden', 'a']);
    expect([...selectVisible(selected, ['a', 'b'], true)].sort()).toEqual(['a', 'b', 'hidden']);
    expect([...selectVisible(selected, ['a', 'b'], false)]).toEqual(['hidden']);
  });

  it('is ticked when every visible row is selected, never for an empty list', () => {
    expect(allVisibleSelected(new Set(['a', 'b']), ['a', 'b'])).toBe(true);
    expect(allVisibleSelected(new Set(['a']), ['a', 'b'])).toBe(false);
    expect(allVisibleSelected(new Set(['a']), [])).toBe(false);
  });
});
