import {
  biblistRequest,
  deleteRequest,
  type InvalidEntriesResponse,
  type ListStamp,
  type SaveResponse,
  saveCategoryRequest,
  saveRequest,
} from '@scriptorium/common/api/bibliography';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { parseForm } from '../../http/errors';
import { requireUser } from '../../http/session';
import { deleteCategories } from './commands/delete-categories';
import { deleteEntries } from './commands/delete-entries';
import { listBibliography } from './commands/list-bibliography';
import { saveCategories } from './commands/save-categories';
import { InvalidEntries, saveEntries } from './commands/save-entries';
import type { OwnerState } from './queries';

function stamp(result: { before: OwnerState; after: OwnerState }): ListStamp {
  return {
    last_modified: result.after.last_modified,
    previous_last_modified: result.before.last_modified,
    number_of_entries: result.after.number_of_entries,
  };
}

/** Spec section 7, /api/bibliography/: thin routes, parse -> policy (in the command) -> command. */
export function bibliographyRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.post('/biblist/', async (request, reply) => {
      const user = requireUser(request);
      const cache = parseForm(request, biblistRequest);
      const body = await listBibliography(ctx, user.id, cache);
      return reply.type('application/json; charset=utf-8').send(body);
    });

    app.post('/save/', async (request, reply) => {
      const user = requireUser(request);
      const { is_new, bibs } = parseForm(request, saveRequest);
      try {
        const result = await saveEntries(ctx, user.id, is_new, bibs);
        const answer: SaveResponse = {
          ...stamp(result),
          id_translations: result.id_translations,
          entry_keys: result.entry_keys,
        };
        return answer;
      } catch (error) {
        if (!(error instanceof InvalidEntries)) throw error;
        const answer: InvalidEntriesResponse = {
          error: 'invalid_entries',
          message: request.t('errors.badRequest'),
          problems: error.problems,
        };
        return reply.code(400).send(answer);
      }
    });

    app.post('/save_category/', async (request) => {
      const user = requireUser(request);
      const { ids, titles } = parseForm(request, saveCategoryRequest);
      return { entries: await saveCategories(ctx, user.id, ids, titles) };
    });

    app.delete('/delete_category/', async (request): Promise<ListStamp> => {
      const user = requireUser(request);
      const { ids } = parseForm(request, deleteRequest);
      return stamp(await deleteCategories(ctx, user.id, ids));
    });

    app.delete('/delete/', async (request): Promise<ListStamp> => {
      const user = requireUser(request);
      const { ids } = parseForm(request, deleteRequest);
      return stamp(await deleteEntries(ctx, user.id, ids));
    });
  };
}
