import type { Db } from '../../../db/database';
import { normaliseFlatpageUrl } from '../flatpage-url';

export async function getFlatpage(db: Db, url: string) {
  return db
    .selectFrom('flatpages')
    .select(['url', 'title', 'content'])
    .where('url', '=', normaliseFlatpageUrl(url))
    .executeTakeFirst();
}
