import { useEffect, useState } from 'react';

/** Where checking a key from the address stands: still asking, refused (or no key), or valid with what it gave. */
export type KeyCheck<T> = { kind: 'checking' } | { kind: 'invalid' } | { kind: 'valid'; data: T };

/**
 * Checks a key from the address (password reset, e-mail confirmation) with the server once per key;
 * a missing key is invalid without asking. An answer for a key no longer shown is dropped. `check`
 * is a fixed API call (a new function every render would ask again each time).
 */
export function useKeyCheck<T>(key: string | null, check: (key: string) => Promise<T>): KeyCheck<T> {
  const [state, setState] = useState<KeyCheck<T>>({ kind: 'checking' });
  useEffect(() => {
    let active = true;
    if (!key) {
      setState({ kind: 'invalid' });
      return;
    }
    check(key).then(
      (data) => active && setState({ kind: 'valid', data }),
      () => active && setState({ kind: 'invalid' }),
    );
    return () => {
      active = false;
    };
  }, [key, check]);
  return state;
}
