import { DEFAULT_LANGUAGE, type Language } from '@scriptorium/common/i18n/languages';
import type { AppContext } from '../../../context';
import { translator } from '../../../i18n/translate';
import { escapeHtml } from '../../../util/escape-html';

/**
 * The stored content of a page that the operator has not written yet. Such a page is shown from
 * the translations, in the reader's language; the operator's `flatpage` command replaces it.
 */
export const SEEDED_CONTENT = '<!-- scriptorium:seeded-flatpage -->';

const SEEDS = [
  { url: '/terms/', titleKey: 'flatpages.termsTitle', textKey: 'flatpages.termsText' },
  { url: '/privacy/', titleKey: 'flatpages.privacyTitle', textKey: 'flatpages.privacyText' },
] as const;

/** What earlier versions stored as the placeholder: an operator's command, in English. */
const EARLIER_PLACEHOLDER = '%npm run manage -- flatpage --url%';

/** One paragraph per line (blank lines are skipped); a line starting with '## ' is a heading. */
export function textToHtml(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) =>
      line.startsWith('## ') ? `<h2>${escapeHtml(line.slice(3))}</h2>` : `<p>${escapeHtml(line)}</p>`,
    )
    .join('\n');
}

/** The seeded page at `url` in `language`, or null when `url` is not one of the seeded pages. */
export function seededFlatpage(url: string, language: Language): { title: string; content: string } | null {
  const seed = SEEDS.find((candidate) => candidate.url === url);
  if (!seed) return null;
  const t = translator('server', language);
  return { title: t(seed.titleKey), content: textToHtml(t(seed.textKey)) };
}

/**
 * The footer links to Terms and Privacy (spec 2.3) from the first start, so both pages exist from
 * the first start too, as sample texts in every language. Pages the operator wrote are never
 * touched; the command placeholder of earlier versions becomes the sample text.
 */
export async function seedFlatpages(ctx: Pick<AppContext, 'db'>): Promise<string[]> {
  const { db } = ctx;
  const t = translator('server', DEFAULT_LANGUAGE);
  const created: string[] = [];
  for (const seed of SEEDS) {
    const inserted = await db
      .insertInto('flatpages')
      .values({ url: seed.url, title: t(seed.titleKey), content: SEEDED_CONTENT })
      .onConflict((oc) => oc.column('url').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) created.push(seed.url);
    await db
      .updateTable('flatpages')
      .set({ content: SEEDED_CONTENT })
      .where('url', '=', seed.url)
      .where('content', 'like', EARLIER_PLACEHOLDER)
      .execute();
  }
  return created;
}
