import type { Configuration } from '@scriptorium/common/api/base';
import { configuration as configurationSchema } from '@scriptorium/common/api/base';

/**
 * The last configuration of a logged-in user, so that the app can start without the server
 * (issue 20: a reload offline shows the cached screens, not the offline page). Anonymous
 * configurations are not kept: after a logout nothing of the user is left to start from.
 */
const KEY = 'scriptorium-configuration';

export function keepConfiguration(value: Configuration): void {
  try {
    if (value.user.is_authenticated) localStorage.setItem(KEY, JSON.stringify(value));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage full or disabled: the app still works online.
  }
}

export function cachedConfiguration(): Configuration | null {
  try {
    const text = localStorage.getItem(KEY);
    if (!text) return null;
    const parsed = configurationSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
