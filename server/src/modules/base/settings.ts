import type { AdminSettings } from '@scriptorium/common/api/admin';
import type { SocialProvider } from '@scriptorium/common/api/base';
import { DEFAULT_LANGUAGE, isLanguage } from '@scriptorium/common/i18n/languages';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';

/**
 * Site settings that staff change in /admin/settings/ rather than in the environment. Stored as
 * JSON text per key in site_settings. Every process keeps them for a few seconds: a change made
 * in one process reaches the others within SETTINGS_TTL_MS, the saving one at once.
 */
export const SETTINGS_TTL_MS = 5000;

const stored = z.object({
  support_email: z.string().catch(''),
  provider_order: z.array(z.string()).catch([]),
  default_language: z.string().catch(DEFAULT_LANGUAGE),
});

const DEFAULTS: AdminSettings = { support_email: '', provider_order: [], default_language: DEFAULT_LANGUAGE };

const cache = new WeakMap<Db, { at: number; settings: AdminSettings }>();

/** The settings this process read less than SETTINGS_TTL_MS ago, if it did. */
export function keptSettings(db: Db): AdminSettings | undefined {
  const cached = cache.get(db);
  return cached && Date.now() - cached.at < SETTINGS_TTL_MS ? cached.settings : undefined;
}

export async function readSettings(db: Db): Promise<AdminSettings> {
  const kept = keptSettings(db);
  if (kept) return kept;
  const rows = await db.selectFrom('site_settings').select(['key', 'value']).execute();
  const raw: Record<string, unknown> = {};
  for (const row of rows) {
    try {
      raw[row.key] = JSON.parse(row.value);
    } catch {
      // A value written by hand that is not JSON counts as unset.
    }
  }
  const parsed = stored.parse({ ...DEFAULTS, ...raw });
  const settings: AdminSettings = {
    ...parsed,
    default_language: isLanguage(parsed.default_language) ? parsed.default_language : DEFAULT_LANGUAGE,
  };
  cache.set(db, { at: Date.now(), settings });
  return settings;
}

export async function writeSettings(db: Db, settings: AdminSettings): Promise<void> {
  for (const [key, value] of Object.entries(settings)) {
    await db
      .insertInto('site_settings')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
      .execute();
  }
}

/** Forgets this process's copy (after a save, once committed). */
export function forgetSettings(db: Db): void {
  cache.delete(db);
}

/** The support address: the saved one, else CONTACT_EMAIL. */
export async function supportEmail(ctx: Pick<AppContext, 'db' | 'config'>): Promise<string | null> {
  const settings = await readSettings(ctx.db);
  return settings.support_email || ctx.config.contactEmail || null;
}

/** The providers in the saved order; providers the order does not name follow in their own order. */
export function orderProviders<P extends Pick<SocialProvider, 'id'>>(providers: P[], order: string[]): P[] {
  const rank = (id: string) => {
    const index = order.indexOf(id);
    return index === -1 ? order.length : index;
  };
  return providers
    .map((provider, index) => ({ provider, index }))
    .sort((a, b) => rank(a.provider.id) - rank(b.provider.id) || a.index - b.index)
    .map(({ provider }) => provider);
}
