import { z } from 'zod';

/**
 * Spec section 5, add contact: the input is split on whitespace, commas and semicolons; each
 * piece is added one at a time and empty pieces are skipped.
 */
export function splitUserStrings(input: string): string[] {
  return input.split(/[\s,;]+/u).filter((piece) => piece !== '');
}

const emailSchema = z.email();

/** Whether a user string is meant as an e-mail address (usernames never hold an '@'). */
export function isEmailLike(userString: string): boolean {
  return userString.includes('@');
}

/** Whether a user string is a syntactically valid e-mail address (error 3 otherwise). */
export function isValidEmailAddress(userString: string): boolean {
  return userString.length <= 254 && emailSchema.safeParse(userString).success;
}

/** Contacts are shown in this order: received invites first (they need an answer), then contacts, then sent invites. */
const TYPE_ORDER = { to_userinvite: 0, user: 1, userinvite: 2 } as const;

/** Sorts rows for display: by type as above, then by name (locale-aware, case-insensitive). */
export function compareContacts(
  a: { type: keyof typeof TYPE_ORDER; name: string },
  b: { type: keyof typeof TYPE_ORDER; name: string },
  locale?: string,
): number {
  return (
    TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || a.name.localeCompare(b.name, locale, { sensitivity: 'base' })
  );
}
