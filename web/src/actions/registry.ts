import { isTypingBinding, matchesBinding, normalizeBinding } from './key-binding';

/**
 * Every user action of the web app is an `Action`: header navigation, overview-menu items, bulk
 * actions, dialog commands and the editor's toolbar and menus. Menus, tooltips and aria
 * attributes are drawn from the same object that the keyboard dispatcher and the command palette
 * (Ctrl+K / Cmd+K) use, so a shortcut shown is a shortcut that works.
 *
 * Usage in a component: `useActions([{ id, scope: 'page', title, ns, keys: 'Alt+I', run }])`
 * (see use-actions.ts). The editor registers its actions with its own scopes, declared once at
 * module level with `defineActionScope('editor', { priority: 20, modal: false })`, and gates
 * context-dependent ones (the caret in a table) with `when`.
 */
export interface Action {
  /** Unique among the registered actions, e.g. 'header.documents', 'contacts.invite', 'editor.bold'. */
  id: string;
  /** Where the action lives; key bindings must be unique within a scope (see ActionScope). */
  scope: string;
  /** i18n key of the title, in namespace `ns`. */
  title: string;
  /** i18n namespace of `title`; 'web' when left out. */
  ns?: string;
  /** An already translated title, for titles that are data (a category's name); wins over `title`. */
  label?: string;
  /** Key binding, e.g. 'Alt+D' (spec shortcuts), 'Mod+B', 'Delete'. See key-binding.ts. */
  keys?: string;
  /**
   * False greys the action out in menus and the palette and ignores its key binding. A function
   * is asked at the moment of use (the palette opens, the key is pressed): the editor's actions
   * depend on the caret, and asking all of them on every keystroke cost more than the keystroke.
   */
  enabled?: boolean | (() => boolean);
  /** Set for toggles (bold on/off, a filter chosen): menus draw a check mark, aria-checked follows. */
  checked?: boolean | (() => boolean);
  /** A context condition checked at the moment of use (e.g. the caret is in a table). */
  when?(): boolean;
  /** False keeps the action out of the command palette (e.g. the palette's own action). */
  inPalette?: boolean;
  run(): void;
}

/**
 * A scope groups actions and orders them when several answer the same keys: the highest priority
 * wins. `modal` scopes are the only ones that answer keys while a dialog is open, so that header
 * and page shortcuts never act behind a dialog.
 */
export interface ActionScope {
  priority: number;
  modal: boolean;
}

export class DuplicateBindingError extends Error {
  constructor(
    readonly scope: string,
    readonly binding: string,
    readonly ids: readonly string[],
  ) {
    super(`Key binding ${binding} is used twice in scope "${scope}": ${ids.join(', ')}`);
  }
}

/** The built-in scopes; the editor adds its own with defineScope. */
export const DEFAULT_SCOPES: Readonly<Record<string, ActionScope>> = {
  app: { priority: 0, modal: false },
  page: { priority: 10, modal: false },
  dialog: { priority: 100, modal: true },
};

/** Scopes declared by features (the editor's), known to every registry. */
const featureScopes = new Map<string, ActionScope>();

/**
 * Declares a scope for every registry; call it at module level next to the actions that use it
 * (the editor: `defineActionScope('editor', { priority: 20, modal: false })`).
 */
export function defineActionScope(name: string, scope: ActionScope): void {
  featureScopes.set(name, scope);
}

/** The pairs of actions whose bindings collide within one scope (empty when all is well). */
export function findDuplicateBindings(actions: readonly Action[]): DuplicateBindingError[] {
  const seen = new Map<string, Action[]>();
  for (const action of actions) {
    if (!action.keys) continue;
    const key = `${action.scope}\u0000${normalizeBinding(action.keys)}`;
    seen.set(key, [...(seen.get(key) ?? []), action]);
  }
  return [...seen.values()]
    .filter((group) => group.length > 1)
    .map((group) => {
      const keys = group[0].keys ?? '';
      return new DuplicateBindingError(
        group[0].scope,
        normalizeBinding(keys),
        group.map((action) => action.id),
      );
    });
}

/** A registration's handle: `update` replaces its actions (each render), `dispose` removes them. */
export interface Registration {
  update(actions: readonly Action[]): void;
  dispose(): void;
}

export interface KeyContext {
  /** Whether a dialog is open now (header and page keys stay quiet then). */
  dialogOpen: boolean;
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type)
  );
}

export function actionEnabled(action: Action): boolean {
  return typeof action.enabled === 'function' ? action.enabled() : action.enabled !== false;
}

export function actionChecked(action: Action): boolean {
  return typeof action.checked === 'function' ? action.checked() : action.checked === true;
}

export function isAvailable(action: Action): boolean {
  return actionEnabled(action) && (action.when?.() ?? true);
}

const SHOWN: readonly (keyof Action)[] = [
  'id',
  'scope',
  'title',
  'ns',
  'label',
  'keys',
  'enabled',
  'checked',
];

function sameShown(a: readonly Action[], b: readonly Action[]): boolean {
  return (
    a.length === b.length && a.every((action, i) => SHOWN.every((field) => action[field] === b[i][field]))
  );
}

/** The registered actions of the current screen; one per app (see ActionsProvider). */
export class ActionRegistry {
  private readonly scopes = new Map<string, ActionScope>(Object.entries(DEFAULT_SCOPES));
  private readonly registrations = new Map<number, readonly Action[]>();
  private readonly listeners = new Set<() => void>();
  private nextToken = 0;
  private version = 0;

  defineScope(name: string, scope: ActionScope): void {
    this.scopes.set(name, scope);
  }

  scope(name: string): ActionScope {
    const scope = this.scopes.get(name) ?? featureScopes.get(name);
    if (!scope) throw new Error(`Unknown action scope "${name}": call defineActionScope first`);
    return scope;
  }

  /**
   * Adds a group of actions. Throws DuplicateBindingError when a binding is taken in the same
   * scope, so that a clash shows up in the first unit test that renders both.
   */
  register(actions: readonly Action[] = []): Registration {
    const token = this.nextToken++;
    this.set(token, actions);
    return {
      update: (next) => this.set(token, next),
      dispose: () => {
        if (this.registrations.delete(token)) this.changed();
      },
    };
  }

  /** Every registered action, in registration order. */
  all(): Action[] {
    return [...this.registrations.values()].flat();
  }

  /**
   * What the command palette lists: enabled actions that want to be listed, the most specific
   * scope first (the screen's and the editor's before the header's), else in registration order.
   */
  available(): Action[] {
    return this.all()
      .filter((action) => action.inPalette !== false && isAvailable(action))
      .map((action, index) => ({ action, index, priority: this.scope(action.scope).priority }))
      .filter(({ action }) => !this.scope(action.scope).modal)
      .sort((a, b) => b.priority - a.priority || a.index - b.index)
      .map(({ action }) => action);
  }

  /** The action a keydown asks for, if any: modal scopes only while a dialog is open, highest priority first. */
  actionForKey(event: KeyboardEvent, context: KeyContext): Action | undefined {
    let best: Action | undefined;
    let bestPriority = Number.NEGATIVE_INFINITY;
    for (const action of this.all()) {
      if (!action.keys) continue;
      const scope = this.scope(action.scope);
      if (context.dialogOpen && !scope.modal) continue;
      if (isTypingBinding(action.keys) && isEditable(event.target)) continue;
      if (!matchesBinding(event, action.keys) || !isAvailable(action)) continue;
      if (scope.priority > bestPriority) {
        best = action;
        bestPriority = scope.priority;
      }
    }
    return best;
  }

  /** Runs the action a keydown asks for; true when one ran (the event is then consumed). */
  handleKeyDown(event: KeyboardEvent, context: KeyContext): boolean {
    if (event.defaultPrevented || event.isComposing) return false;
    const action = this.actionForKey(event, context);
    if (!action) return false;
    event.preventDefault();
    action.run();
    return true;
  }

  /** For useSyncExternalStore: a number that changes with every registration change. */
  getVersion = (): number => this.version;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(token: number, actions: readonly Action[]) {
    for (const action of actions) this.scope(action.scope);
    const others = [...this.registrations.entries()].filter(([key]) => key !== token).flatMap(([, a]) => a);
    const ids = new Set(others.map((action) => action.id));
    for (const action of actions) {
      if (ids.has(action.id)) throw new Error(`Action id "${action.id}" is registered twice`);
      ids.add(action.id);
    }
    const [duplicate] = findDuplicateBindings([...others, ...actions]);
    if (duplicate) throw duplicate;
    const before = this.registrations.get(token);
    this.registrations.set(token, actions);
    // Pages hand in fresh objects on every render; only a visible difference is news.
    if (!before || !sameShown(before, actions)) this.changed();
  }

  private changed() {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
