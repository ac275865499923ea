import { v1Api } from '@scriptorium/common/api/endpoints/v1';
import { pageOf, type v1DocumentPage } from '@scriptorium/common/api/v1';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { requireUser } from '../../http/session';
import { presentDocumentList } from '../documents/presenters';
import { listVisibleDocumentsAndOwners } from '../documents/queries';

/**
 * The public API under /api/v1/ (issue 57; endpoints in common/src/api/endpoints/v1.ts). The
 * routes reuse the app's commands, queries and presenters: a token's call does what the same
 * user's browser would.
 */
export function v1Routes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, v1Api.documentsList, async (request): Promise<z.input<typeof v1DocumentPage>> => {
      const user = requireUser(request);
      const page = parseInput(request, v1Api.documentsList);
      const { documents, owners } = await listVisibleDocumentsAndOwners(ctx.db, user.id);
      const { items, next_cursor } = pageOf(presentDocumentList(documents, owners), page);
      return { documents: items, next_cursor };
    });
  };
}
