import type { TFunction } from 'i18next';
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useSyncExternalStore,
} from 'react';
import { isDialogOpen } from '../components/dialog/dialog-layers';
import { ariaKeyShortcuts, bindingLabel } from './key-binding';
import { type Action, ActionRegistry, actionEnabled, type Registration } from './registry';

const RegistryContext = createContext<ActionRegistry>(new ActionRegistry());

/**
 * One registry per app and one keydown listener for all of its actions. Tests render their own
 * provider so that registrations never leak between them.
 */
export function ActionsProvider({ registry, children }: { registry: ActionRegistry; children: ReactNode }) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      registry.handleKeyDown(event, { dialogOpen: isDialogOpen() });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [registry]);
  return <RegistryContext.Provider value={registry}>{children}</RegistryContext.Provider>;
}

export function useActionRegistry(): ActionRegistry {
  return useContext(RegistryContext);
}

/**
 * Registers a component's actions while it is mounted. Pass fresh objects on every render: the
 * registration is updated in place, so `run` always sees the latest state.
 */
export function useActions(actions: readonly Action[]): void {
  const registry = useActionRegistry();
  const registration = useRef<Registration | null>(null);
  const registered = useRef<readonly Action[] | null>(null);
  useLayoutEffect(() => {
    const handle = registry.register();
    registration.current = handle;
    registered.current = null;
    return () => {
      registration.current = null;
      handle.dispose();
    };
  }, [registry]);
  useLayoutEffect(() => {
    // The same array as last time (memoised, as the editor's on every keystroke): nothing to check.
    if (registered.current === actions) return;
    registered.current = actions;
    registration.current?.update(actions);
  });
}

/** The registered actions, re-read whenever a registration changes (e.g. for the palette). */
export function useRegisteredActions(): Action[] {
  const registry = useActionRegistry();
  useSyncExternalStore(registry.subscribe, registry.getVersion, registry.getVersion);
  return registry.available();
}

/** The action's title in the user's language. */
export function actionTitle(action: Action, t: TFunction): string {
  return action.label ?? t(action.title, { ns: action.ns ?? 'web' });
}

/**
 * The attributes every control of an action carries: aria-keyshortcuts, a tooltip naming the
 * shortcut (`Documents (Alt-d)`), aria-disabled.
 */
export function actionAttributes(
  action: Action,
  t: TFunction,
): { 'aria-keyshortcuts'?: string; title?: string; 'aria-disabled'?: true } {
  const label = actionTitle(action, t);
  return {
    'aria-keyshortcuts': action.keys ? ariaKeyShortcuts(action.keys) : undefined,
    title: action.keys
      ? t('header.shortcut', { ns: 'web', label, key: bindingLabel(action.keys) })
      : undefined,
    'aria-disabled': actionEnabled(action) ? undefined : true,
  };
}
