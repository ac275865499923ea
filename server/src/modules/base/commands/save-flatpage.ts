import type { AppContext } from '../../../context';
import { normaliseFlatpageUrl } from '../flatpage-url';

/** Creates the page or replaces its title and content; used by `manage flatpage` and the seed. */
export async function saveFlatpage(
  ctx: Pick<AppContext, 'db'>,
  page: { url: string; title: string; content: string },
): Promise<{ url: string; outcome: 'created' | 'replaced' }> {
  const url = normaliseFlatpageUrl(page.url);
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('flatpages').select('id').where('url', '=', url).executeTakeFirst();
    if (existing) {
      await trx
        .updateTable('flatpages')
        .set({ title: page.title, content: page.content })
        .where('id', '=', existing.id)
        .execute();
      return { url, outcome: 'replaced' as const };
    }
    await trx.insertInto('flatpages').values({ url, title: page.title, content: page.content }).execute();
    return { url, outcome: 'created' as const };
  });
}
