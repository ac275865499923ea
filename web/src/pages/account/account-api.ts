import { okResponse } from '@scriptorium/common/api/base';
import { apiError } from '@scriptorium/common/api/errors';
import {
  avatarResponse,
  confirmKeyData,
  fieldMessages,
  formErrors,
  passwordResetKeyResponse,
} from '@scriptorium/common/api/user';
import { ApiError, apiDelete, apiGet, apiPost } from '../../api/client';

/** Spec 7: the account calls of the pre-login pages and the profile page. */
export const accountApi = {
  requestReset: (email: string) => apiPost('/api/user/password/reset/', { email }, okResponse),
  checkResetKey: (key: string) =>
    apiGet(`/api/account/password/reset/key/${encodeURIComponent(key)}/`, passwordResetKeyResponse),
  setPassword: (url: string, password1: string, password2: string) =>
    apiPost(url, { password1, password2 }, okResponse),
  confirmKeyData: (key: string) => apiPost('/api/user/get_confirmkey_data/', { key }, confirmKeyData),
  confirmEmail: (key: string) =>
    apiDelete(`/api/user/confirm-email/${encodeURIComponent(key)}/`, {}, okResponse),
  logout: () => apiPost('/api/user/logout/', {}, okResponse),
  saveProfile: (user: { username: string; first_name: string; last_name: string }) =>
    apiPost('/api/user/save/', { form_data: { user } }, okResponse),
  changePassword: (old_password: string, new_password1: string, new_password2: string) =>
    apiPost('/api/user/passwordchange/', { old_password, new_password1, new_password2 }, okResponse),
  addEmail: (email: string) => apiPost('/api/user/email/add/', { email }, okResponse),
  deleteEmail: (email: string) => apiPost('/api/user/email/delete/', { email }, okResponse),
  setPrimaryEmail: (email: string) => apiPost('/api/user/email/primary/', { email }, okResponse),
  deleteSocialAccount: (id: number) =>
    apiPost('/api/user/socialaccountdelete/', { socialaccount: id }, okResponse),
  uploadAvatar: (file: File) => {
    const body = new FormData();
    body.append('avatar', file, file.name);
    return apiPost('/api/user/avatar/upload/', body, avatarResponse);
  },
  deleteAvatar: () => apiPost('/api/user/avatar/delete/', {}, okResponse),
  deleteAccount: (password: string) => apiPost('/api/user/delete/', { password }, okResponse),
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
