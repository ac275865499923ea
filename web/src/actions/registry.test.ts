import { describe, expect, it, vi } from 'vitest';
import { ariaKeyShortcuts, bindingLabel, matchesBinding, normalizeBinding } from './key-binding';
import { type Action, ActionRegistry, DuplicateBindingError, findDuplicateBindings } from './registry';

function action(id: string, scope: string, keys?: string, run: () => void = () => undefined): Action {
  return { id, scope, title: id, keys, run };
}

function keydown(init: KeyboardEventInit & { code: string }, target?: EventTarget): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { ...init, cancelable: true, bubbles: true });
  if (target) Object.defineProperty(event, 'target', { value: target });
  return event;
}

describe('key bindings', () => {
  it('match the physical key for letters, with exactly the given modifiers', () => {
    expect(matchesBinding(keydown({ code: 'KeyD', key: '∂', altKey: true }), 'Alt+D')).toBe(true);
    expect(matchesBinding(keydown({ code: 'KeyD', key: 'd', altKey: true, shiftKey: true }), 'Alt+D')).toBe(
      false,
    );
    expect(matchesBinding(keydown({ code: 'KeyK', key: 'k', ctrlKey: true }), 'Mod+K', false)).toBe(true);
    expect(matchesBinding(keydown({ code: 'KeyK', key: 'k', metaKey: true }), 'Mod+K', true)).toBe(true);
    expect(matchesBinding(keydown({ code: 'KeyK', key: 'k', metaKey: true }), 'Mod+K', false)).toBe(false);
    expect(matchesBinding(keydown({ code: 'Delete', key: 'Delete' }), 'Delete')).toBe(true);
  });

  it('have one spelling, an aria form and a label in the spec style', () => {
    expect(normalizeBinding('Shift+Mod+z', false)).toBe(normalizeBinding('Ctrl+Shift+Z', false));
    expect(ariaKeyShortcuts('Alt+d')).toBe('Alt+D');
    expect(ariaKeyShortcuts('Mod+K', false)).toBe('Control+K');
    expect(ariaKeyShortcuts('Mod+K', true)).toBe('Meta+K');
    expect(bindingLabel('Alt+D')).toBe('Alt-d');
    expect(bindingLabel('Mod+K', false)).toBe('Ctrl+K');
    expect(bindingLabel('Mod+K', true)).toBe('⌘K');
  });
});

describe('action registry', () => {
  it('refuses a key binding used twice in one scope, but allows it in another', () => {
    const registry = new ActionRegistry();
    registry.register([action('a', 'page', 'Alt+I')]);
    expect(() => registry.register([action('b', 'page', 'alt+i')])).toThrow(DuplicateBindingError);
    expect(() => registry.register([action('c', 'dialog', 'Alt+I')])).not.toThrow();
    expect(findDuplicateBindings([action('x', 'app', 'Mod+K'), action('y', 'app', 'Mod+k')])).toHaveLength(1);
  });

  it('refuses an unknown scope until it is defined', () => {
    const registry = new ActionRegistry();
    expect(() => registry.register([action('bold', 'editor', 'Mod+B')])).toThrow(/defineScope/);
    registry.defineScope('editor', { priority: 20, modal: false });
    expect(() => registry.register([action('bold', 'editor', 'Mod+B')])).not.toThrow();
  });

  it('runs the action of the highest-priority scope, and only modal scopes while a dialog is open', () => {
    const registry = new ActionRegistry();
    const app = vi.fn();
    const page = vi.fn();
    registry.register([action('app.x', 'app', 'Alt+X', app)]);
    const pageRegistration = registry.register([action('page.x', 'page', 'Alt+X', page)]);
    expect(registry.handleKeyDown(keydown({ code: 'KeyX', altKey: true }), { dialogOpen: false })).toBe(true);
    expect(page).toHaveBeenCalledTimes(1);
    expect(app).not.toHaveBeenCalled();

    expect(registry.handleKeyDown(keydown({ code: 'KeyX', altKey: true }), { dialogOpen: true })).toBe(false);
    expect(page).toHaveBeenCalledTimes(1);

    pageRegistration.dispose();
    registry.handleKeyDown(keydown({ code: 'KeyX', altKey: true }), { dialogOpen: false });
    expect(app).toHaveBeenCalledTimes(1);
  });

  it('skips disabled actions, ones whose condition fails, and plain keys inside text fields', () => {
    const registry = new ActionRegistry();
    const run = vi.fn();
    const registration = registry.register([{ ...action('del', 'page', 'Delete', run), enabled: false }]);
    registry.handleKeyDown(keydown({ code: 'Delete', key: 'Delete' }), { dialogOpen: false });
    registration.update([{ ...action('del', 'page', 'Delete', run), when: () => false }]);
    registry.handleKeyDown(keydown({ code: 'Delete', key: 'Delete' }), { dialogOpen: false });
    expect(run).not.toHaveBeenCalled();

    registration.update([action('del', 'page', 'Delete', run)]);
    registry.handleKeyDown(keydown({ code: 'Delete', key: 'Delete' }, document.createElement('input')), {
      dialogOpen: false,
    });
    expect(run).not.toHaveBeenCalled();
    registry.handleKeyDown(keydown({ code: 'Delete', key: 'Delete' }, document.body), { dialogOpen: false });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('lists for the palette what is enabled and wants to be listed, and tells subscribers of changes only', () => {
    const registry = new ActionRegistry();
    const listener = vi.fn();
    registry.subscribe(listener);
    const registration = registry.register([
      action('a', 'page'),
      { ...action('b', 'page'), enabled: false },
      { ...action('palette', 'app', 'Mod+K'), inPalette: false },
    ]);
    expect(registry.available().map((a) => a.id)).toEqual(['a']);
    expect(listener).toHaveBeenCalledTimes(1);
    // The same visible actions again (a re-render with fresh objects) is no news.
    registration.update([
      action('a', 'page'),
      { ...action('b', 'page'), enabled: false },
      { ...action('palette', 'app', 'Mod+K'), inPalette: false },
    ]);
    expect(listener).toHaveBeenCalledTimes(1);
    registration.update([action('a', 'page')]);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
