/**
 * Whether a keydown is Alt plus the given key ('i' for Alt-i). KeyboardEvent.code is compared,
 * not .key, because Alt turns .key into other characters on macOS and some keyboard layouts.
 */
export function isAltShortcut(event: KeyboardEvent, key: string): boolean {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
  const char = key.toLowerCase();
  if (/^[a-z]$/.test(char)) return event.code === `Key${char.toUpperCase()}`;
  if (/^[0-9]$/.test(char)) return event.code === `Digit${char}`;
  return false;
}

/** The aria-keyshortcuts value for an Alt shortcut ('i' gives 'Alt+I'). */
export function altShortcutAria(key: string): string {
  return `Alt+${key.toUpperCase()}`;
}
