import * as z from 'zod/mini';

/** The JSON body of every non-form error answer (401, 403, 404, 405, 429, 500). */
export const apiError = z.object({ error: z.string(), message: z.string() });
export type ApiError = z.infer<typeof apiError>;
