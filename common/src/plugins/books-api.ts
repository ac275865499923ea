import { z } from 'zod';

/** GET /api/books/list/: the user's books (the Books plugin). */
export const bookListResponse = z.object({
  books: z.array(z.object({ id: z.number(), title: z.string(), updated: z.number() })),
});
export type BookListResponse = z.infer<typeof bookListResponse>;
