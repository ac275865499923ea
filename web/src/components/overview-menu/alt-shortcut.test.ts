import { describe, expect, it } from 'vitest';
import { altShortcutAria, isAltShortcut } from './alt-shortcut';

function key(code: string, init: KeyboardEventInit = {}): KeyboardEvent {
  return new KeyboardEvent('keydown', { code, altKey: true, ...init });
}

describe('isAltShortcut', () => {
  it('matches Alt plus the physical key, whatever character it produced', () => {
    expect(isAltShortcut(key('KeyI', { key: 'ˆ' }), 'i')).toBe(true);
    expect(isAltShortcut(key('KeyI'), 'I')).toBe(true);
    expect(isAltShortcut(key('Digit3'), '3')).toBe(true);
  });

  it('needs Alt alone', () => {
    expect(isAltShortcut(key('KeyI', { altKey: false }), 'i')).toBe(false);
    expect(isAltShortcut(key('KeyI', { ctrlKey: true }), 'i')).toBe(false);
    expect(isAltShortcut(key('KeyI', { metaKey: true }), 'i')).toBe(false);
    expect(isAltShortcut(key('KeyI', { shiftKey: true }), 'i')).toBe(false);
    expect(isAltShortcut(key('KeyU'), 'i')).toBe(false);
  });

  it('names the shortcut for aria-keyshortcuts', () => {
    expect(altShortcutAria('u')).toBe('Alt+U');
  });
});
