import { z } from 'zod';

/** GET /api/templates/list/: the user's document templates (the Templates plugin). */
export const templateListResponse = z.object({
  templates: z.array(z.object({ id: z.number(), title: z.string(), updated: z.number() })),
});
export type TemplateListResponse = z.infer<typeof templateListResponse>;
