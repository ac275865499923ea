import { z } from 'zod';
import { formBoolean } from './form';

/** POST /api/user/login/ (spec section 7). */
export const loginRequest = z.object({
  login: z.string().trim().min(1),
  password: z.string().min(1),
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
