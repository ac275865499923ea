import type { AdminFlatpage } from '@scriptorium/common/api/admin';
import type { Language } from '@scriptorium/common/i18n/languages';
import type { AppContext } from '../../../context';
import type { UserRow } from '../../../db/rows';
import { FormError, HttpError } from '../../../http/errors';
import { SEEDED_CONTENT, seededFlatpage } from '../../base/commands/seed-flatpages';
import { normaliseFlatpageUrl } from '../../base/flatpage-url';
import { audit } from '../audit';
import { cleanFlatpageHtml } from '../flatpage-content';

type Staff = Pick<UserRow, 'id' | 'username'>;

/** Every page; a sample page (never written by staff) shows its text in the staff's language. */
export async function listFlatpages(ctx: AppContext, language: Language): Promise<AdminFlatpage[]> {
  const rows = await ctx.db.selectFrom('flatpages').selectAll().orderBy('url').execute();
  return rows.map((row) => {
    const seeded = row.content === SEEDED_CONTENT ? seededFlatpage(row.url, language) : null;
    return {
      id: row.id,
      url: row.url,
      title: seeded?.title ?? row.title,
      content: seeded?.content ?? row.content,
      seeded: seeded !== null,
    };
  });
}

/** Creates (id 0) or changes a page; the content is sanitised before it is stored. */
export async function saveFlatpageAsStaff(
  ctx: AppContext,
  staff: Staff,
  input: { id: number; url: string; title: string; content: string },
): Promise<AdminFlatpage> {
  const url = normaliseFlatpageUrl(input.url);
  const content = await cleanFlatpageHtml(ctx.config, input.content);
  const id = await ctx.db.transaction().execute(async (trx) => {
    const clash = await trx.selectFrom('flatpages').select('id').where('url', '=', url).executeTakeFirst();
    if (clash && clash.id !== input.id) {
      throw new FormError(400, [], { url: [{ key: 'admin:errors.urlTaken' }] });
    }
    if (input.id === 0) {
      const row = await trx
        .insertInto('flatpages')
        .values({ url, title: input.title, content })
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit(trx, staff, 'flatpage.create', url, { title: input.title });
      return row.id;
    }
    const before = await trx
      .selectFrom('flatpages')
      .selectAll()
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!before) throw new HttpError(404);
    await trx
      .updateTable('flatpages')
      .set({ url, title: input.title, content })
      .where('id', '=', input.id)
      .execute();
    await audit(trx, staff, 'flatpage.update', url, {
      ...(before.url !== url ? { url: [before.url, url] } : {}),
      ...(before.title !== input.title ? { title: [before.title, input.title] } : {}),
      content_changed: before.content !== content,
    });
    return input.id;
  });
  return { id, url, title: input.title, content, seeded: false };
}

/** Terms and Privacy are linked from every footer: they can be rewritten, never deleted. */
const KEPT_PAGES = new Set(['/terms/', '/privacy/']);

export async function deleteFlatpage(ctx: AppContext, staff: Staff, input: { id: number }): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const page = await trx
      .selectFrom('flatpages')
      .select(['id', 'url'])
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!page) throw new HttpError(404);
    if (KEPT_PAGES.has(page.url)) throw new FormError(400, [{ key: 'admin:errors.pageKept' }]);
    await trx.deleteFrom('flatpages').where('id', '=', input.id).execute();
    await audit(trx, staff, 'flatpage.delete', page.url);
  });
}
