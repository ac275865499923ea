import * as z from 'zod/mini';
import { jsonField } from './form';
import { jsonIdField, textField } from './text-rules';

/**
 * Written with zod/mini (text-rules.ts has the rules of fields.ts): the logged-in overview's chunk
 * loads this module at start, and classic zod there cost 13-20 ms of main-thread time (issue 23).
 */

/**
 * Spec section 3: a contact is a connected user (`user`), an invite the user sent and that is
 * still pending (`userinvite`) or an invite the user received and has not answered
 * (`to_userinvite`). The id of a `user` row is the other user's id; the id of an invite row is
 * the invite's id, so the pair (id, type) names a row.
 */
export const CONTACT_TYPES = ['user', 'userinvite', 'to_userinvite'] as const;
export const contactType = z.enum(CONTACT_TYPES);
export type ContactType = z.infer<typeof contactType>;

export const contact = z.object({
  id: z.number().check(z.int()),
  type: contactType,
  name: z.string(),
  /** The primary address, else the first; '' when the other side has not revealed one to this user. */
  email: z.string(),
  /** Avatar image URL, only where the person has one. */
  avatar: z.optional(z.string()),
});
export type Contact = z.infer<typeof contact>;

/** POST /api/user/contacts/list/ */
export const contactsListResponse = z.object({ contacts: z.array(contact) });

/** Longest accepted user string: the longest valid e-mail address. */
export const USER_STRING_MAX = 254;

/** POST /api/user/invites/add/ : a username or an e-mail address. */
export const inviteAddRequest = z.object({
  user_string: textField(z.trim(), z.minLength(1), z.maxLength(USER_STRING_MAX)),
});
/** The 201 answer of /api/user/invites/add/. */
export const inviteAddResponse = z.object({ contact });

/**
 * Spec section 8, the error codes of /api/user/invites/add/: 1 yourself, 2 already a contact or
 * already invited, 3 no such user and not a valid e-mail address.
 */
export const INVITE_ERROR_CODES = [1, 2, 3] as const;
export type InviteErrorCode = (typeof INVITE_ERROR_CODES)[number];
export const inviteAddError = z.object({
  error: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  message: z.string(),
});
export type InviteAddError = z.infer<typeof inviteAddError>;

/** The most rows one bulk request may name; a table selection never gets near it. */
export const BULK_MAX = 1000;

const rowReference = z.object({ id: jsonIdField, type: contactType });
export type ContactReference = z.infer<typeof rowReference>;

/** POST /api/user/contacts/delete/ {contacts: JSON list of id and type}. */
export const contactsDeleteRequest = z.object({
  contacts: jsonField(z.array(rowReference).check(z.minLength(1), z.maxLength(BULK_MAX))),
});

/**
 * POST /api/user/invites/accept/ and /decline/ {invites: JSON list}. Only the ids matter; whole
 * contact objects are accepted too (unknown keys are dropped).
 */
export const invitesAnswerRequest = z.object({
  invites: jsonField(z.array(z.object({ id: jsonIdField })).check(z.minLength(1), z.maxLength(BULK_MAX))),
});
/** The answer of /api/user/invites/accept/: the new contacts. */
export const invitesAcceptResponse = z.object({ contacts: z.array(contact) });

/** POST /api/user/invite/ {key}: claims an invite link; the browser then goes to `redirect`. */
export const inviteClaimRequest = z.object({ key: textField(z.trim(), z.minLength(1), z.maxLength(200)) });
export const inviteClaimResponse = z.object({ redirect: z.string() });
