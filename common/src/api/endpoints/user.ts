import * as z from 'zod/mini';
import { okResponse } from '../base';
import { endpoint } from '../endpoint';
import { jsonField } from '../form';
import * as user from '../user';

/** /api/user/ and /api/account/ (spec section 7): login, profile, e-mail addresses, avatar. */
export const userApi = {
  login: endpoint({
    method: 'POST',
    path: '/api/user/login/',
    request: user.loginRequest,
    response: user.loginResponse,
  }),
  logout: endpoint({ method: 'POST', path: '/api/user/logout/', response: okResponse }),
  passwordReset: endpoint({
    method: 'POST',
    path: '/api/user/password/reset/',
    request: user.passwordResetRequest,
    response: okResponse,
  }),
  /** Whether the key of a password-reset link is valid, and where to post the new password. */
  passwordResetKey: endpoint({
    method: 'GET',
    path: '/api/account/password/reset/key/:key/',
    response: user.passwordResetKeyResponse,
  }),
  passwordResetSet: endpoint({
    method: 'POST',
    path: '/api/account/password/reset/key/:key/',
    request: user.passwordResetSetRequest,
    response: okResponse,
  }),
  confirmKeyData: endpoint({
    method: 'POST',
    path: '/api/user/get_confirmkey_data/',
    request: user.confirmKeyRequest,
    response: user.confirmKeyData,
  }),
  confirmEmail: endpoint({ method: 'DELETE', path: '/api/user/confirm-email/:key/', response: okResponse }),
  saveProfile: endpoint({
    method: 'POST',
    path: '/api/user/save/',
    request: z.object({ form_data: jsonField(user.profileData) }),
    response: okResponse,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/api/user/passwordchange/',
    request: user.passwordChangeRequest,
    response: okResponse,
  }),
  addEmail: endpoint({
    method: 'POST',
    path: '/api/user/email/add/',
    request: user.emailRequest,
    response: okResponse,
  }),
  deleteEmail: endpoint({
    method: 'POST',
    path: '/api/user/email/delete/',
    request: user.emailRequest,
    response: okResponse,
  }),
  primaryEmail: endpoint({
    method: 'POST',
    path: '/api/user/email/primary/',
    request: user.emailRequest,
    response: okResponse,
  }),
  deleteSocialAccount: endpoint({
    method: 'POST',
    path: '/api/user/socialaccountdelete/',
    request: user.socialAccountDeleteRequest,
    response: okResponse,
  }),
  uploadAvatar: endpoint({
    method: 'POST',
    path: '/api/user/avatar/upload/',
    body: 'multipart',
    // Checked by the route itself (a missing or unreadable file is a field message, not a 400).
    request: z.object({ avatar: z.instanceof(Blob) }),
    response: user.avatarResponse,
  }),
  deleteAvatar: endpoint({ method: 'POST', path: '/api/user/avatar/delete/', response: okResponse }),
  deleteAccount: endpoint({
    method: 'POST',
    path: '/api/user/delete/',
    request: user.deleteAccountRequest,
    response: okResponse,
  }),
};
