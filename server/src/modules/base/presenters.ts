import type { Configuration, Flatpage } from '@scriptorium/common/api/base';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { FlatpagesTable } from '../../db/schema';
import { presentProviders } from '../../social/providers';
import { presentAuthenticatedUser } from '../user/presenters';

export async function presentConfiguration(ctx: AppContext, request: FastifyRequest): Promise<Configuration> {
  return {
    user: request.user ? await presentAuthenticatedUser(ctx.db, request.user) : { is_authenticated: false },
    socialaccount_providers: presentProviders(ctx.config),
    ws_url_base: ctx.config.wsUrlBase,
    language: request.language,
    contact_email: ctx.config.contactEmail ?? null,
    plugins: ctx.config.plugins,
  };
}

export function presentFlatpage(page: Pick<FlatpagesTable, 'title' | 'content'>): Flatpage {
  return { title: page.title, content: page.content };
}
