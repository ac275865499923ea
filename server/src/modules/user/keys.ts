import { createHash, randomBytes } from 'node:crypto';

/** Reset and confirmation links work for 3 days. */
export const KEY_LIFETIME_MS = 3 * 24 * 3600 * 1000;

/** A new link key: 32 random bytes, URL-safe. */
export function newKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored, so a leaked database holds no working links. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
