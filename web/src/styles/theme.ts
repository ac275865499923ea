/**
 * The colour theme: 'system' follows prefers-color-scheme; 'light' and 'dark' are the user's
 * choice, kept in localStorage and shown as data-theme on <html> (tokens.css reads it).
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_STORAGE_KEY = 'scriptorium-theme';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(value) ? value : 'system';
  } catch {
    // Storage can be blocked (private mode, policy): the system's choice still applies.
    return 'system';
  }
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}

export function setTheme(theme: Theme): void {
  try {
    if (theme === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not kept across visits, but the page still changes.
  }
  applyTheme(theme);
}

/** Called once before the first render, so that the first paint is already in the chosen theme. */
export function applyStoredTheme(): void {
  applyTheme(storedTheme());
}
