import { userApi } from '@scriptorium/common/api/endpoints/user';
import { apiError } from '@scriptorium/common/api/errors';
import { fieldMessages, formErrors } from '@scriptorium/common/api/user';
import { ApiError, call } from '../../api/client';

/** Spec 7: the account calls of the pre-login pages and the profile page. */
export const accountApi = {
  requestReset: (email: string) => call(userApi.passwordReset, { email }),
  checkResetKey: (key: string) => call(userApi.passwordResetKey, { key }),
  /** Posts the new password for the key that checkResetKey found valid. */
  setPassword: (key: string, password1: string, password2: string) =>
    call(userApi.passwordResetSet, { key, password1, password2 }),
  confirmKeyData: (key: string) => call(userApi.confirmKeyData, { key }),
  confirmEmail: (key: string) => call(userApi.confirmEmail, { key }),
  logout: () => call(userApi.logout),
  saveProfile: (user: { username: string; first_name: string; last_name: string }) =>
    call(userApi.saveProfile, { form_data: { user } }),
  changePassword: (old_password: string, new_password1: string, new_password2: string) =>
    call(userApi.changePassword, { old_password, new_password1, new_password2 }),
  addEmail: (email: string) => call(userApi.addEmail, { email }),
  deleteEmail: (email: string) => call(userApi.deleteEmail, { email }),
  setPrimaryEmail: (email: string) => call(userApi.primaryEmail, { email }),
  deleteSocialAccount: (id: number) => call(userApi.deleteSocialAccount, { socialaccount: id }),
  /** Multipart, with the share sent reported to `onProgress` (0 to 1). */
  uploadAvatar: (file: File, onProgress: (fraction: number) => void) =>
    call(userApi.uploadAvatar, { avatar: file }, { onUploadProgress: onProgress }),
  deleteAvatar: () => call(userApi.deleteAvatar),
  deleteAccount: (password: string) => call(userApi.deleteAccount, { password }),
};

/** Field errors of a login-style form answer (`form.fields`), plus its general errors. */
export function formErrorsOf(error: unknown): { general: string[]; fields: Record<string, string[]> } | null {
  if (!(error instanceof ApiError)) return null;
  const parsed = formErrors.safeParse(error.body);
  if (!parsed.success) return null;
  return {
    general: parsed.data.form.errors,
    fields: Object.fromEntries(Object.entries(parsed.data.form.fields).map(([k, v]) => [k, v.errors])),
  };
}

/** Per-field messages of a profile call's failure (`msg`), or null. */
export function fieldMessagesOf(error: unknown): Record<string, string[]> | null {
  if (!(error instanceof ApiError)) return null;
  const parsed = fieldMessages.safeParse(error.body);
  return parsed.success ? parsed.data.msg : null;
}

/** The translated message of a plain error answer, or null. */
export function errorMessageOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const parsed = apiError.safeParse(error.body);
  return parsed.success ? parsed.data.message : null;
}

export function statusOf(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}
