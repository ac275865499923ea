import type { AppContext } from '../../../context';
import { normaliseFlatpageUrl } from '../flatpage-url';

export async function getFlatpage(ctx: AppContext, input: { url: string }) {
  return ctx.db
    .selectFrom('flatpages')
    .select(['url', 'title', 'content'])
    .where('url', '=', normaliseFlatpageUrl(input.url))
    .executeTakeFirst();
}
