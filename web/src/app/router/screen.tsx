import { type ComponentType, createElement, type LazyExoticComponent, lazy, type ReactNode } from 'react';
import { loadAllNamespaces, loadNamespaces } from '../../i18n/i18n';
import type { Route } from './routes';

/** Spec 9: a script chunk that has not arrived after 120000 ms counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120000;

/**
 * A screen of the route table: what `Route.page` names. Core screens and plugins' screens are
 * declared alike (see core-routes.tsx and web/src/plugins).
 */
export interface Screen {
  page: string;
  render(route: Route): ReactNode;
  /** Fetches the screen's chunk and texts ahead (lazy screens only). */
  preload?(): Promise<unknown>;
  /**
   * The locale namespaces the screen draws with, beside the logged-in shell's; a lazy screen
   * without this list waits for every namespace.
   */
  namespaces?: readonly string[];
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Chunk load timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

type LazyPage<P> = LazyExoticComponent<ComponentType<P>> & { preload(): Promise<unknown> };

/**
 * Screens load as their own chunks, so the editor's weight does not slow the login page.
 * `preload` fetches a chunk ahead. React's lazy suspends on its first render unless its thenable
 * answers at once, and React then holds the loaded screen back for up to 300 ms (its throttle on
 * revealing suspended content); a preloaded screen answers at once and is drawn in the same frame.
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS).then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const page = lazy(() => {
    if (loaded) {
      const module = { default: loaded };
      // A thenable that calls back synchronously: React takes the screen without suspending.
      // biome-ignore lint/suspicious/noThenProperty: React's lazy needs exactly such a thenable
      return { then: (resolve: (value: typeof module) => void) => resolve(module) } as Promise<typeof module>;
    }
    return preload().then((component) => ({ default: component }));
  });
  return Object.assign(page, { preload });
}

/**
 * A screen in its own chunk, drawn once its chunk and its texts are there. `props` turns the
 * route's params into the component's props, so that each screen keeps its typed props while the
 * table holds screens of every kind. `namespaces`: the texts it needs (see Screen), so that a
 * logged-in start on this screen loads only those before its first paint.
 */
export function lazyScreen<P extends object>(
  page: string,
  load: () => Promise<ComponentType<P>>,
  props: (params: Route['params']) => P,
  namespaces?: readonly string[],
): Screen {
  const texts = () => (namespaces ? loadNamespaces(namespaces) : loadAllNamespaces());
  const component = lazyPage(() => Promise.all([load(), texts()]).then(([loaded]) => loaded));
  return {
    page,
    render: (route) => createElement(component, props(route.params)),
    preload: component.preload,
    namespaces,
  };
}

/** A small screen bundled with the shell (the 404 page, flat pages). */
export function eagerScreen<P extends object>(
  page: string,
  component: ComponentType<P>,
  props: (params: Route['params']) => P,
): Screen {
  return { page, render: (route) => createElement(component, props(route.params)) };
}

/** For screens without props. */
export const noProps = (): Record<string, never> => ({});
