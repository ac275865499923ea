import type { Configuration } from '@scriptorium/common/api/base';
import { baseApi } from '@scriptorium/common/api/endpoints/base';
import { ApiError, call } from '../../api/client';
import { cachedConfiguration, keepConfiguration } from '../../offline/cached-configuration';
import { clearCookies } from '../cache/cookies';

/** What app start-up found (spec 4 and 8). */
export type ConfigurationOutcome =
  /** `cached`: the last configuration of this browser, because the server could not be reached. */
  | { kind: 'ready'; configuration: Configuration; cached?: boolean }
  | { kind: 'offline' }
  | { kind: 'update' };

/**
 * Offline check, then GET /api/base/configuration/. A 405 means the server is being updated; a
 * 403 means our cookies are stale (e.g. a CSRF cookie of an old secret), so they are cleared and
 * the load is tried once more; anything else that fails shows the offline page.
 */
export async function loadConfiguration(): Promise<ConfigurationOutcome> {
  if (!navigator.onLine) return fromCache();
  for (let attempt = 1; ; attempt++) {
    try {
      const configuration = await call(baseApi.configuration);
      keepConfiguration(configuration);
      return { kind: 'ready', configuration };
    } catch (error) {
      if (error instanceof ApiError && error.status === 405) return { kind: 'update' };
      if (error instanceof ApiError && error.status === 403) {
        clearCookies();
        if (attempt === 1) continue;
      }
      if (error instanceof ApiError) return { kind: 'offline' };
      return fromCache();
    }
  }
}

let early: Promise<ConfigurationOutcome> | null = null;

/**
 * Starts the app's first configuration load as the entry module runs (main.tsx), so that it
 * travels with the language's texts and the screen's chunk instead of after the first render.
 */
export function startConfigurationLoad(): void {
  early ??= loadConfiguration();
}

/** The load startConfigurationLoad began (taken once), or else a new one. */
export function takeConfigurationLoad(): Promise<ConfigurationOutcome> {
  const pending = early ?? loadConfiguration();
  early = null;
  return pending;
}

/** Offline, a logged-in user's app starts from the cached configuration (issue 20). */
function fromCache(): ConfigurationOutcome {
  const configuration = cachedConfiguration();
  return configuration ? { kind: 'ready', configuration, cached: true } : { kind: 'offline' };
}
