import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { call } from '../../api/client';

/** Where an invite key waits while its visitor logs in (spec 2.3: the key is kept, then claimed). */
export const INVITE_KEY_STORAGE = 'scriptorium.inviteKey';

export function storeInviteKey(key: string): void {
  try {
    sessionStorage.setItem(INVITE_KEY_STORAGE, key);
  } catch {
    // Storage can be unavailable (private mode quotas); the key stays in the address then.
  }
}

/** Takes the stored key out, so that it is claimed once. */
export function takeStoredInviteKey(): string | null {
  try {
    const key = sessionStorage.getItem(INVITE_KEY_STORAGE);
    sessionStorage.removeItem(INVITE_KEY_STORAGE);
    return key;
  } catch {
    return null;
  }
}

const inFlight = new Map<string, Promise<string>>();

/**
 * Claims the invite link's key; resolves to the address to show next. A second call for the same
 * key while the first runs (a remount after the login reloads the configuration) shares the first
 * answer instead of claiming again and being sent home.
 */
export function claimInvite(key: string): Promise<string> {
  let pending = inFlight.get(key);
  if (!pending) {
    pending = call(contactsApi.claim, { key }).then((answer) => answer.redirect);
    inFlight.set(key, pending);
    const forget = () => {
      inFlight.delete(key);
    };
    pending.then(forget, forget);
  }
  return pending;
}
