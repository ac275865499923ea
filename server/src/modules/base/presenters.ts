import type { Configuration, Flatpage } from '@scriptorium/common/api/base';
import type { Language } from '@scriptorium/common/i18n/languages';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { FlatpagesTable } from '../../db/schema';
import { presentProviders } from '../../social/providers';
import { orderProviders, readSettings } from '../admin/settings';
import { presentAuthenticatedUser } from '../user/presenters';
import { SEEDED_CONTENT, seededFlatpage } from './commands/seed-flatpages';

export async function presentConfiguration(ctx: AppContext, request: FastifyRequest): Promise<Configuration> {
  // Site settings staff keep in the database (/admin/settings/) win over the environment.
  const settings = await readSettings(ctx.db);
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
