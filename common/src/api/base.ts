import * as z from 'zod/mini';
import { LANGUAGES } from '../i18n/languages';
import { PLUGIN_NAMES } from '../plugins/names';
import { textField } from './text-rules';

/** Spec section 3: e-mail entry. */
export const emailEntry = z.object({
  address: z.string(),
  primary: z.boolean(),
  verified: z.boolean(),
});
export type EmailEntry = z.infer<typeof emailEntry>;

/** Spec section 3: social account connected to the user. */
export const socialAccount = z.object({ id: z.number(), provider: z.string(), name: z.string() });
export type SocialAccount = z.infer<typeof socialAccount>;

/** Spec section 3: social provider offered on the login page. */
export const socialProvider = z.object({ id: z.string(), name: z.string(), login_url: z.string() });
export type SocialProvider = z.infer<typeof socialProvider>;

export const authenticatedUser = z.object({
  is_authenticated: z.literal(true),
  id: z.number(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** Display name: "first last", else the username. */
  name: z.string(),
  avatar: z.nullable(z.string()),
  emails: z.array(emailEntry),
  socialaccounts: z.array(socialAccount),
  waiting_invites: z.boolean(),
  is_staff: z.boolean(),
});
export type AuthenticatedUser = z.infer<typeof authenticatedUser>;

export const anonymousUser = z.object({ is_authenticated: z.literal(false) });

/** Spec section 3: the configuration object, GET /api/base/configuration/. */
export const configuration = z.object({
  user: z.discriminatedUnion('is_authenticated', [authenticatedUser, anonymousUser]),
  socialaccount_providers: z.array(socialProvider),
  ws_url_base: z.string(),
  language: z.enum(LANGUAGES),
  /** Support address shown on the password-reset page and in the footer; null when unset. */
  contact_email: z.nullable(z.string()),
  /** Enabled plugins, in header order (spec 2.2: templates 4, books 5). */
  plugins: z.array(z.enum(PLUGIN_NAMES)),
});
export type Configuration = z.infer<typeof configuration>;

/** POST /api/base/flatpage/ */
export const flatpageRequest = z.object({ url: textField(z.minLength(1), z.maxLength(200)) });
export const flatpageResponse = z.object({ title: z.string(), content: z.string() });
export type Flatpage = z.infer<typeof flatpageResponse>;

/** POST /api/i18n/setlang/ */
export const setLanguageRequest = z.object({ language: z.enum(LANGUAGES) });

/** POST /api/feedback/feedback/ */
export const feedbackRequest = z.object({ message: textField(z.trim(), z.minLength(1), z.maxLength(10000)) });

/** The answer of calls whose response the spec leaves open (logout, feedback, ...). */
export const okResponse = z.object({ ok: z.literal(true) });

/** POST /api/i18n/setlang/ answer: the language now in effect. */
export const setLanguageResponse = z.object({ language: z.enum(LANGUAGES) });
