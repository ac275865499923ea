import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 defaults to argon2id (19 MiB, 2 passes, 1 lane): OWASP's recommended minimum.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password; with no hash (unknown login, or an account without a password) it still
 * spends the time of one verification, so that timing does not reveal which logins exist.
 */
export async function verifyPassword(
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hash('no account has this password');
    await verify(await dummyHash, password);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a wrong password, not a 500.
    return false;
  }
}
