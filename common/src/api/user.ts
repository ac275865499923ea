import * as z from 'zod/mini';
import { formBoolean } from './form';
import { formIdField, textField } from './text-rules';

/** POST /api/user/login/ (spec section 7). */
export const loginRequest = z.object({
  login: textField(z.trim(), z.minLength(1), z.maxLength(254)),
  password: textField(z.minLength(1), z.maxLength(4096)),
  remember: formBoolean,
});
export const loginResponse = z.object({ location: z.string() });

/**
 * The error shape of server-side form validation (spec section 3, "Login error response"):
 * general errors plus per-field error lists. Used by every form the server validates.
 */
export const formErrors = z.object({
  form: z.object({
    errors: z.array(z.string()),
    fields: z.record(z.string(), z.object({ errors: z.array(z.string()) })),
  }),
});
export type FormErrors = z.infer<typeof formErrors>;

// ---- Accounts (issue 3): password reset, e-mail confirmation, profile ----

/** The longest username accepted, and the characters allowed in one (letters, digits and .+-_). */
export const USERNAME_MAX_LENGTH = 150;
/**
 * No '@': a username that looked like an e-mail address could be another person's address, and
 * that person's e-mail login would then reach the wrong account.
 */
export const USERNAME_PATTERN = /^[\p{L}\p{N}.+\-_]+$/u;

/** True when `username` could be saved (the server also checks that it is free). */
export function isValidUsername(username: string): boolean {
  return username.length > 0 && username.length <= USERNAME_MAX_LENGTH && USERNAME_PATTERN.test(username);
}

/** Spec 5: the e-mail is required and must be valid. */
const emailField = z.pipe(textField(z.trim(), z.minLength(1), z.maxLength(254)), z.email());

/** POST /api/user/password/reset/ */
export const passwordResetRequest = z.object({ email: emailField });

/** GET /api/account/password/reset/key/{key}/: where to post the new password. */
export const passwordResetKeyResponse = z.object({ url: z.string() });

/** POST to that url: both required; the server checks that they match. */
export const passwordResetSetRequest = z.object({
  password1: textField(z.minLength(1), z.maxLength(4096)),
  password2: textField(z.minLength(1), z.maxLength(4096)),
});

/** POST /api/user/get_confirmkey_data/ */
export const confirmKeyRequest = z.object({ key: textField(z.minLength(1), z.maxLength(200)) });
/** Spec 3: confirm-key data. `verified`: the account already has a verified address (no terms then). */
export const confirmKeyData = z.object({
  username: z.string(),
  email: z.string(),
  verified: z.boolean(),
  /** Someone else is logged in in this browser: confirming logs them out first. */
  logout: z.boolean(),
});
export type ConfirmKeyData = z.infer<typeof confirmKeyData>;

/** POST /api/user/save/: form_data is JSON text with the user's names. */
export const profileData = z.object({
  user: z.object({
    username: textField(z.trim(), z.minLength(1), z.maxLength(USERNAME_MAX_LENGTH)),
    first_name: textField(z.trim(), z.maxLength(150)),
    last_name: textField(z.trim(), z.maxLength(150)),
  }),
});

/** POST /api/user/passwordchange/ */
export const passwordChangeRequest = z.object({
  old_password: textField(z.minLength(1), z.maxLength(4096)),
  new_password1: textField(z.minLength(1), z.maxLength(4096)),
  new_password2: textField(z.minLength(1), z.maxLength(4096)),
});

/** The failure body of the profile calls: per-field error lists (spec 7 "body msg"). */
export const fieldMessages = z.object({ msg: z.record(z.string(), z.array(z.string())) });
export type FieldMessages = z.infer<typeof fieldMessages>;

/** POST /api/user/email/add/, /email/delete/, /email/primary/ */
export const emailRequest = z.object({ email: emailField });

/** POST /api/user/socialaccountdelete/ */
export const socialAccountDeleteRequest = z.object({ socialaccount: formIdField });

/** POST /api/user/avatar/upload/ answer: the new avatar's address. */
export const avatarResponse = z.object({ avatar: z.string() });

/** POST /api/user/delete/ */
export const deleteAccountRequest = z.object({ password: textField(z.minLength(1), z.maxLength(4096)) });

/** Avatar file types of spec 5 and 9. */
export const AVATAR_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;

/** True when the file name ends in one of the avatar extensions (case-insensitive). */
export function isAvatarFileName(name: string): boolean {
  const extension = name.toLowerCase().split('.').pop() ?? '';
  return name.includes('.') && (AVATAR_EXTENSIONS as readonly string[]).includes(extension);
}

/** Spec 5: deleting the account needs the own username typed again and a non-empty password. */
export function canDeleteAccount(currentUsername: string, typedUsername: string, password: string): boolean {
  return typedUsername === currentUsername && password.length > 0;
}
