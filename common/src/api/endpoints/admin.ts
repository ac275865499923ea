import { z } from 'zod';
import * as admin from '../admin';
import { endpoint } from '../endpoint';

const ok = z.object({ ok: z.literal(true) });

/**
 * Staff administration (issue 22). Every call answers 404 to anyone but staff, as if it did not
 * exist; unsafe ones need the CSRF token like everything else.
 */
export const adminApi = {
  users: endpoint({
    method: 'GET',
    path: '/api/admin/users/',
    request: admin.adminUsersRequest,
    response: admin.adminUsersResponse,
  }),
  createUser: endpoint({
    method: 'POST',
    path: '/api/admin/users/create/',
    request: admin.adminUserCreateRequest,
    response: admin.adminUserResponse,
  }),
  updateUser: endpoint({
    method: 'POST',
    path: '/api/admin/users/update/',
    request: admin.adminUserUpdateRequest,
    response: admin.adminUserResponse,
  }),
  setUserActive: endpoint({
    method: 'POST',
    path: '/api/admin/users/active/',
    request: admin.adminUserActiveRequest,
    response: admin.adminUserResponse,
  }),
  userEmail: endpoint({
    method: 'POST',
    path: '/api/admin/users/email/',
    request: admin.adminUserEmailRequest,
    response: admin.adminUserResponse,
  }),
  deletionSummary: endpoint({
    method: 'GET',
    path: '/api/admin/users/deletion-summary/',
    request: admin.adminUserIdRequest,
    response: admin.adminDeletionSummary,
  }),
  deleteUser: endpoint({
    method: 'POST',
    path: '/api/admin/users/delete/',
    request: admin.adminUserDeleteRequest,
    response: ok,
  }),
  resendConfirmation: endpoint({
    method: 'POST',
    path: '/api/admin/users/resend-confirmation/',
    request: admin.adminUserIdRequest,
    response: admin.adminCountResponse,
  }),
  resetLockout: endpoint({
    method: 'POST',
    path: '/api/admin/users/reset-lockout/',
    request: admin.adminUserIdRequest,
    response: admin.adminUserResponse,
  }),
  flatpages: endpoint({
    method: 'GET',
    path: '/api/admin/flatpages/',
    response: admin.adminFlatpagesResponse,
  }),
  saveFlatpage: endpoint({
    method: 'POST',
    path: '/api/admin/flatpages/save/',
    request: admin.adminFlatpageSaveRequest,
    response: admin.adminFlatpageResponse,
  }),
  previewFlatpage: endpoint({
    method: 'POST',
    path: '/api/admin/flatpages/preview/',
    request: admin.adminFlatpagePreviewRequest,
    response: admin.adminFlatpagePreviewResponse,
  }),
  deleteFlatpage: endpoint({
    method: 'POST',
    path: '/api/admin/flatpages/delete/',
    request: admin.adminUserIdRequest,
    response: ok,
  }),
  sendSystemMessage: endpoint({
    method: 'POST',
    path: '/api/admin/system-message/',
    request: admin.adminSystemMessageRequest,
    response: admin.adminSystemMessageResponse,
  }),
  presence: endpoint({ method: 'GET', path: '/api/admin/presence/', response: admin.adminPresenceResponse }),
  feedback: endpoint({
    method: 'GET',
    path: '/api/admin/feedback/',
    request: admin.adminFeedbackRequest,
    response: admin.adminFeedbackResponse,
  }),
  setFeedbackDone: endpoint({
    method: 'POST',
    path: '/api/admin/feedback/done/',
    request: admin.adminFeedbackDoneRequest,
    response: ok,
  }),
  settings: endpoint({ method: 'GET', path: '/api/admin/settings/', response: admin.adminSettingsResponse }),
  saveSettings: endpoint({
    method: 'POST',
    path: '/api/admin/settings/save/',
    request: admin.adminSettingsSaveRequest,
    response: admin.adminSettingsResponse,
  }),
  log: endpoint({
    method: 'GET',
    path: '/api/admin/log/',
    request: admin.adminLogRequest,
    response: admin.adminLogResponse,
  }),
};

/** Every admin endpoint, for the tests that check that nobody but staff reaches any of them. */
export const ADMIN_ENDPOINTS = Object.values(adminApi);
