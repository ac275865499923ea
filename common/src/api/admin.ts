import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages';
import { SYSTEM_MESSAGE_MAX_LENGTH } from '../ws/messages';
import { formId, text } from './fields';
import { formBoolean, jsonField } from './form';
import { USERNAME_MAX_LENGTH, USERNAME_PATTERN } from './user';

/** Staff administration under /admin/ and /api/admin/ (issue 22). */

export const ADMIN_PAGE_SIZE = 50;

const pageField = z.coerce.number().int().min(1).max(1_000_000).default(1);
/** Where an answered page of a list stands: rows in all, the page's number and the page size. */
const listPage = {
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
};

// ---- Users ----

export const USER_FILTERS = ['all', 'staff', 'inactive'] as const;
export type UserFilter = (typeof USER_FILTERS)[number];

export const adminUsersRequest = z.object({
  q: text().trim().max(254).default(''),
  filter: z.enum(USER_FILTERS).default('all'),
  page: pageField,
});

export const adminUserEmail = z.object({
  address: z.string(),
  primary: z.boolean(),
  verified: z.boolean(),
});

export const adminUser = z.object({
  id: z.number().int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  emails: z.array(adminUserEmail),
  is_staff: z.boolean(),
  is_active: z.boolean(),
  /** Milliseconds since the epoch; null: never logged in. */
  last_login: z.number().nullable(),
  created: z.number(),
  documents: z.number().int().nonnegative(),
  /** Bytes of the user's image library. */
  storage: z.number().nonnegative(),
  /** Whether a login lock holds the account from some address. */
  locked: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUser>;

export const adminUsersResponse = z.object({
  users: z.array(adminUser),
  ...listPage,
  /** More users match than `total` (the count stops there). */
  capped: z.boolean(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponse>;

const username = text().trim().min(1).max(USERNAME_MAX_LENGTH).regex(USERNAME_PATTERN);
const name = text().trim().max(150).default('');
const email = text().trim().min(1).max(254).pipe(z.email());

export const adminUserCreateRequest = z.object({
  username,
  email,
  first_name: name,
  last_name: name,
  is_staff: formBoolean,
});

export const adminUserIdRequest = z.object({ id: formId });

export const adminUserUpdateRequest = z.object({
  id: formId,
  username,
  first_name: name,
  last_name: name,
  is_staff: formBoolean,
});

export const adminUserActiveRequest = z.object({ id: formId, active: formBoolean });

/** Staff add an address (counted as confirmed: staff vouch for it), remove one, or make one primary. */
export const adminUserEmailRequest = z.object({
  id: formId,
  action: z.enum(['add', 'remove', 'primary']),
  email,
});

/** What deleting a user takes with it, shown before the staff member confirms. */
export const adminDeletionSummary = z.object({
  documents: z.number().int().nonnegative(),
  images: z.number().int().nonnegative(),
  bibliography: z.number().int().nonnegative(),
  contacts: z.number().int().nonnegative(),
});
export type AdminDeletionSummary = z.infer<typeof adminDeletionSummary>;

export const adminUserDeleteRequest = z.object({
  id: formId,
  /** 'delete': the documents go with the account; 'transfer': they go to `transfer_to`. */
  documents: z.enum(['delete', 'transfer']),
  transfer_to: text().trim().max(USERNAME_MAX_LENGTH).default(''),
});

export const adminUserResponse = z.object({ user: adminUser });

export const adminCountResponse = z.object({ count: z.number().int().nonnegative() });

// ---- Flat pages ----

export const adminFlatpage = z.object({
  id: z.number().int(),
  url: z.string(),
  title: z.string(),
  content: z.string(),
  /** A sample page never written by staff (shown in the reader's language). */
  seeded: z.boolean(),
});
export type AdminFlatpage = z.infer<typeof adminFlatpage>;

export const adminFlatpagesResponse = z.object({ pages: z.array(adminFlatpage) });

/** Letters, digits, '-', '_' and '/' between them: "/terms/", "/pages/about/", "/help/faq/". */
export const FLATPAGE_URL_PATTERN = /^\/?[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*\/?$/;

export const adminFlatpageSaveRequest = z.object({
  /** 0: a new page. */
  id: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
  url: text().trim().min(1).max(190).regex(FLATPAGE_URL_PATTERN),
  title: text().trim().min(1).max(200),
  content: text().max(200_000),
});

export const adminFlatpagePreviewRequest = z.object({ content: text().max(200_000) });
export const adminFlatpagePreviewResponse = z.object({ content: z.string() });
export const adminFlatpageResponse = z.object({ page: adminFlatpage });

// ---- System messages and presence ----

export const adminSystemMessageRequest = z.object({
  message: text().trim().min(1).max(SYSTEM_MESSAGE_MAX_LENGTH),
});
export const adminSystemMessageResponse = z.object({
  /** Server processes that took the message. */
  processes: z.number().int().nonnegative(),
});

export const adminPresenceUser = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  sockets: z.number().int().nonnegative(),
  documents: z.array(z.object({ id: z.number().int(), title: z.string() })),
});
export type AdminPresenceUser = z.infer<typeof adminPresenceUser>;

export const adminPresenceResponse = z.object({
  processes: z.number().int().nonnegative(),
  sockets: z.number().int().nonnegative(),
  users: z.array(adminPresenceUser),
});
export type AdminPresence = z.infer<typeof adminPresenceResponse>;

// ---- Feedback ----

export const FEEDBACK_FILTERS = ['open', 'done', 'all'] as const;

export const adminFeedbackRequest = z.object({
  filter: z.enum(FEEDBACK_FILTERS).default('open'),
  page: pageField,
});

export const adminFeedbackItem = z.object({
  id: z.number().int(),
  message: z.string(),
  created: z.number(),
  /** Null for a visitor's report, or when the account is gone. */
  username: z.string().nullable(),
  email: z.string().nullable(),
  done: z.number().nullable(),
});
export type AdminFeedbackItem = z.infer<typeof adminFeedbackItem>;

export const adminFeedbackResponse = z.object({
  items: z.array(adminFeedbackItem),
  ...listPage,
});

export const adminFeedbackDoneRequest = z.object({ id: formId, done: formBoolean });

// ---- Site settings ----

export const adminSettings = z.object({
  /** Shown on the password reset page and receiving feedback; empty: the CONTACT_EMAIL setting. */
  support_email: z.string(),
  /** Provider ids in the order the login page shows them. */
  provider_order: z.array(z.string()),
  default_language: z.enum(LANGUAGES),
});
export type AdminSettings = z.infer<typeof adminSettings>;

export const adminSettingsResponse = z.object({
  settings: adminSettings,
  /** The configured social providers (id and name), in the saved order. */
  providers: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AdminSettingsResponse = z.infer<typeof adminSettingsResponse>;

export const adminSettingsSaveRequest = z.object({
  support_email: z.union([z.literal(''), email]).default(''),
  provider_order: jsonField(z.array(z.string().max(40)).max(50)),
  default_language: z.enum(LANGUAGES),
});

// ---- Audit log ----

export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.staff',
  'user.activate',
  'user.deactivate',
  'user.delete',
  'user.resend_confirmation',
  'user.reset_lockout',
  'user.email.add',
  'user.email.remove',
  'user.email.primary',
  'flatpage.create',
  'flatpage.update',
  'flatpage.delete',
  'system_message.send',
  'feedback.done',
  'feedback.reopen',
  'settings.update',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const adminLogRequest = z.object({ page: pageField });

export const adminLogEntry = z.object({
  id: z.number().int(),
  actor: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
  created: z.number(),
});
export type AdminLogEntry = z.infer<typeof adminLogEntry>;

export const adminLogResponse = z.object({
  entries: z.array(adminLogEntry),
  ...listPage,
});
