import type { AdminSettings } from '@scriptorium/common/api/admin';
import type { Configuration, Flatpage } from '@scriptorium/common/api/base';
import type { Language } from '@scriptorium/common/i18n/languages';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { keptWhileUnchanged } from '../../db/kept';
import type { FlatpagesTable } from '../../db/schema';
import { presentProviders } from '../social/providers';
import { presentAuthenticatedUser } from '../user/presenters';
import { SEEDED_CONTENT, seededFlatpage } from './commands/seed-flatpages';
import { keptSettings, orderProviders, readSettings } from './settings';

export async function presentConfiguration(
  ctx: AppContext,
  request: FastifyRequest,
  // Site settings staff keep in the database (/admin/settings/) win over the environment.
  settings: AdminSettings,
): Promise<Configuration> {
  return {
    user: request.user
      ? await presentAuthenticatedUser(ctx.db, request.user, request.changeStamp)
      : { is_authenticated: false },
    socialaccount_providers: orderProviders(presentProviders(ctx.config), settings.provider_order),
    ws_url_base: ctx.config.wsUrlBase,
    language: request.language,
    contact_email: settings.support_email || ctx.config.contactEmail || null,
    plugins: ctx.config.plugins,
  };
}

/**
 * A logged-in user's configuration as JSON, kept per user and language while the database is
 * unchanged (the request's change stamp, see keptWhileUnchanged) and so are the site settings
 * (readSettings gives a new object when it reads them again): every start of the app asks for it,
 * and presenting and serializing it anew was a sixth of the answer's time (issue 23). A visitor's,
 * and every one on PostgreSQL (no stamp), is made each time.
 */
const keptConfigurations = keptWhileUnchanged<string, string>(10_000);
const settingsVersions = new WeakMap<AdminSettings, number>();
let lastSettingsVersion = 0;

/** The key and stamp of the request's kept configuration; undefined where none is kept. */
function keeping(request: FastifyRequest, settings: AdminSettings) {
  if (!request.user || request.changeStamp === undefined) return undefined;
  let version = settingsVersions.get(settings);
  if (version === undefined) {
    version = ++lastSettingsVersion;
    settingsVersions.set(settings, version);
  }
  return { key: `${request.user.id}:${request.language}`, stamp: `${request.changeStamp}:${version}` };
}

/** The configuration's JSON at once when it is kept (no promise: the app's most frequent call). */
export function keptConfigurationJson(ctx: AppContext, request: FastifyRequest): string | undefined {
  const settings = keptSettings(ctx.db);
  const kept = settings && keeping(request, settings);
  return kept && keptConfigurations.peek(ctx.db, kept.key, kept.stamp)?.value;
}

export async function configurationJson(ctx: AppContext, request: FastifyRequest): Promise<string> {
  const settings = await readSettings(ctx.db);
  const present = async () => JSON.stringify(await presentConfiguration(ctx, request, settings));
  const kept = keeping(request, settings);
  return kept ? keptConfigurations(ctx.db, kept.key, present, kept.stamp) : present();
}

/** A page the operator has not written yet is shown as the sample text in the reader's language. */
export function presentFlatpage(
  page: Pick<FlatpagesTable, 'url' | 'title' | 'content'>,
  language: Language,
): Flatpage {
  if (page.content === SEEDED_CONTENT) {
    const seeded = seededFlatpage(page.url, language);
    if (seeded) return seeded;
  }
  return { title: page.title, content: page.content };
}
