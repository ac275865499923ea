import { afterEach, describe, expect, it } from 'vitest';
import { applyStoredTheme, setTheme, storedTheme, THEME_STORAGE_KEY } from './theme';

describe('colour theme', () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.removeAttribute('data-theme');
  });

  it('follows the system until the user chooses, then keeps the choice on <html> and in storage', () => {
    expect(storedTheme()).toBe('system');
    applyStoredTheme();
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);

    setTheme('dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    // A new page load applies the stored choice before the first render.
    document.documentElement.removeAttribute('data-theme');
    applyStoredTheme();
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');

    setTheme('system');
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('ignores a stored value that is not a theme', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(storedTheme()).toBe('system');
  });
});
