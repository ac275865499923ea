/**
 * Key bindings of actions, written as `Alt+D`, `Mod+K`, `Shift+Mod+Z`, `Delete`: modifiers and one
 * key joined by `+`. `Mod` is Cmd on Apple systems and Ctrl elsewhere. Letters and digits are
 * compared by KeyboardEvent.code (the physical key), because Alt turns `.key` into other
 * characters on macOS and on some layouts; other keys (Enter, Delete, F2, ArrowUp) by `.key`.
 */

export type Modifier = 'Alt' | 'Ctrl' | 'Meta' | 'Shift';

export interface ParsedBinding {
  modifiers: ReadonlySet<Modifier>;
  /** Upper-case letter or digit, or a KeyboardEvent.key name such as 'Delete'. */
  key: string;
}

const MODIFIER_ORDER: readonly Modifier[] = ['Ctrl', 'Meta', 'Alt', 'Shift'];

/** Apple keyboards use Cmd where others use Ctrl. */
export function isApplePlatform(): boolean {
  if (typeof navigator === 'undefined') return false;
  return /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);
}

/** Parses a binding; `Mod` is resolved for this platform. Throws on a malformed binding. */
export function parseBinding(binding: string, apple = isApplePlatform()): ParsedBinding {
  const parts = binding.split('+').map((part) => part.trim());
  const key = parts.pop();
  if (!key) throw new Error(`Key binding "${binding}" has no key`);
  const modifiers = new Set<Modifier>();
  for (const part of parts) {
    const word = part.charAt(0).toUpperCase() + part.slice(1).toLowerCase();
    const name = word === 'Mod' ? (apple ? 'Meta' : 'Ctrl') : word === 'Cmd' ? 'Meta' : word;
    if (!(MODIFIER_ORDER as readonly string[]).includes(name)) {
      throw new Error(`Key binding "${binding}" has an unknown modifier "${part}"`);
    }
    modifiers.add(name as Modifier);
  }
  return { modifiers, key: key.length === 1 ? key.toUpperCase() : key };
}

/** One spelling per binding (`Shift+Mod+z` and `Mod+Shift+Z` are the same), for duplicate checks. */
export function normalizeBinding(binding: string, apple = isApplePlatform()): string {
  const { modifiers, key } = parseBinding(binding, apple);
  return [...MODIFIER_ORDER.filter((modifier) => modifiers.has(modifier)), key].join('+');
}

function eventKey(event: KeyboardEvent): string {
  const letter = /^Key([A-Z])$/.exec(event.code);
  if (letter) return letter[1];
  const digit = /^Digit([0-9])$/.exec(event.code);
  if (digit) return digit[1];
  return event.key.length === 1 ? event.key.toUpperCase() : event.key;
}

/** Whether a keydown is exactly this binding (no extra modifiers). */
export function matchesBinding(event: KeyboardEvent, binding: string, apple = isApplePlatform()): boolean {
  const parsed = parseBinding(binding, apple);
  const pressed: Record<Modifier, boolean> = {
    Alt: event.altKey,
    Ctrl: event.ctrlKey,
    Meta: event.metaKey,
    Shift: event.shiftKey,
  };
  for (const modifier of MODIFIER_ORDER) {
    if (pressed[modifier] !== parsed.modifiers.has(modifier)) return false;
  }
  return eventKey(event) === parsed.key;
}

/** Bindings without Alt, Ctrl or Meta are typing keys: they must not act inside text fields. */
export function isTypingBinding(binding: string): boolean {
  const { modifiers } = parseBinding(binding);
  return !modifiers.has('Alt') && !modifiers.has('Ctrl') && !modifiers.has('Meta');
}

/** The aria-keyshortcuts value (`Alt+D`, `Control+K`, `Meta+K`). */
export function ariaKeyShortcuts(binding: string, apple = isApplePlatform()): string {
  const { modifiers, key } = parseBinding(binding, apple);
  const names: Record<Modifier, string> = { Ctrl: 'Control', Meta: 'Meta', Alt: 'Alt', Shift: 'Shift' };
  return [...MODIFIER_ORDER.filter((modifier) => modifiers.has(modifier)).map((m) => names[m]), key].join(
    '+',
  );
}

/**
 * The binding as shown in tooltips and the palette. Alt shortcuts keep the spec's spelling
 * (`Alt-d`, spec 2.2); others read as on the platform (`Ctrl+K`, `⌘K`).
 */
export function bindingLabel(binding: string, apple = isApplePlatform()): string {
  const { modifiers, key } = parseBinding(binding, apple);
  if (modifiers.size === 1 && modifiers.has('Alt') && key.length === 1) return `Alt-${key.toLowerCase()}`;
  if (apple) {
    const symbols: Record<Modifier, string> = { Ctrl: '⌃', Alt: '⌥', Shift: '⇧', Meta: '⌘' };
    return `${['Ctrl', 'Alt', 'Shift', 'Meta'].map((m) => (modifiers.has(m as Modifier) ? symbols[m as Modifier] : '')).join('')}${key}`;
  }
  return [...MODIFIER_ORDER.filter((modifier) => modifiers.has(modifier)), key].join('+');
}
