import type { AuthenticatedUser, Configuration } from '@scriptorium/common/api/base';
import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { applyLanguage } from '../../i18n/i18n';
import { setLocalUser } from '../../offline/local-user';
import { takeConfigurationLoad } from './load-configuration';

/** Spec 9: the update page retries initialisation every 5000 ms. */
export const UPDATE_RETRY_MS = 5000;

export type AppState =
  | { status: 'loading' }
  | { status: 'offline' }
  | { status: 'update' }
  | { status: 'disconnected' }
  | { status: 'ready'; configuration: Configuration; cached?: boolean };

export interface AppContextValue {
  configuration: Configuration;
  /** The logged-in user, or null for anonymous visitors. */
  user: AuthenticatedUser | null;
  /** Loads the configuration again and redraws (after login, logout, a profile change ...). */
  reloadConfiguration(): Promise<void>;
  /** Replaces the app with the disconnected page (e.g. when the server ends the session). */
  showDisconnected(): void;
}

const AppContext = createContext<AppContextValue | null>(null);
export const AppContextProvider = AppContext.Provider;

export function useAppContext(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useAppContext() is only available once the configuration has loaded');
  return value;
}

export function useConfiguration(): Configuration {
  return useAppContext().configuration;
}

/** The configuration once loaded, else null: for widgets also rendered outside the app (unit tests). */
export function useLoadedConfiguration(): Configuration | null {
  return useContext(AppContext)?.configuration ?? null;
}

export function useCurrentUser(): AuthenticatedUser | null {
  return useAppContext().user;
}

/** The user where the app context may be missing (screens rendered alone in tests): null there. */
export function useOptionalUser(): AuthenticatedUser | null {
  return useContext(AppContext)?.user ?? null;
}

export interface AppLoader {
  state: AppState;
  reload(): Promise<void>;
  showDisconnected(): void;
}

/** App start (spec 4): loads the configuration, retries on the update page, restarts when back online. */
export function useAppLoader(): AppLoader {
  const [state, setState] = useState<AppState>({ status: 'loading' });
  // Only the newest load may set the state, so a slow old answer cannot overwrite a newer one.
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const current = ++generation.current;
    const outcome = await takeConfigurationLoad();
    if (current !== generation.current) return;
    if (outcome.kind === 'ready') {
      const { user } = outcome.configuration;
      setLocalUser(user.is_authenticated ? user.username : null);
      await applyLanguage(outcome.configuration.language).catch(() => {});
      if (current !== generation.current) return;
      setState({ status: 'ready', configuration: outcome.configuration, cached: outcome.cached });
    } else {
      setState({ status: outcome.kind });
    }
  }, []);

  const showDisconnected = useCallback(() => {
    generation.current++;
    setState({ status: 'disconnected' });
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(() => {
    if (state.status === 'update') {
      const timer = window.setTimeout(() => void reload(), UPDATE_RETRY_MS);
      return () => window.clearTimeout(timer);
    }
    if (state.status === 'offline' || (state.status === 'ready' && state.cached)) {
      // Back online: the real configuration (and with it fresh screens) replaces the cached one.
      const onOnline = () => void reload();
      window.addEventListener('online', onOnline);
      return () => window.removeEventListener('online', onOnline);
    }
  }, [state, reload]);

  return { state, reload, showDisconnected };
}
