import { DEFAULT_LANGUAGE } from '@scriptorium/common/i18n/languages';
import type { Db } from '../../../db/database';
import { translator } from '../../../i18n/translate';
import { escapeHtml } from '../../../util/escape-html';

const SEEDS = [
  { url: '/terms/', titleKey: 'flatpages.termsTitle' },
  { url: '/privacy/', titleKey: 'flatpages.privacyTitle' },
];

/**
 * The footer links to Terms and Privacy (spec 2.3) from the first start, so both pages exist from
 * the first start too, saying how the operator replaces them. Existing pages are never touched.
 */
export async function seedFlatpages(db: Db): Promise<string[]> {
  const t = translator('server', DEFAULT_LANGUAGE);
  const created: string[] = [];
  for (const seed of SEEDS) {
    const title = t(seed.titleKey);
    const content = `<p>${escapeHtml(t('flatpages.placeholder', { url: seed.url, title }))}</p>`;
    const inserted = await db
      .insertInto('flatpages')
      .values({ url: seed.url, title, content })
      .onConflict((oc) => oc.column('url').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) created.push(seed.url);
  }
  return created;
}
