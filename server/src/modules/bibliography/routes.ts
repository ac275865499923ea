import type { InvalidEntriesResponse, ListStamp, SaveResponse } from '@scriptorium/common/api/bibliography';
import { bibliographyApi, bibSourcesApi } from '@scriptorium/common/api/endpoints/bibliography';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { userRoute } from '../user-route';
import { deleteCategories } from './commands/delete-categories';
import { deleteEntries } from './commands/delete-entries';
import { listBibliography } from './commands/list-bibliography';
import { saveCategories } from './commands/save-categories';
import { InvalidEntries, saveEntries } from './commands/save-entries';
import type { OwnerState } from './queries';
import { addSource, listSources, removeSource, syncNow } from './sources/commands';

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
    userRoute(app, bibliographyApi.list, async (cache, user, request, reply) => {
      const body = await listBibliography(ctx, user, cache, request.changeStamp);
      return reply.type('application/json; charset=utf-8').send(body);
    });

    userRoute(app, bibliographyApi.save, async (input, user, request, reply) => {
      try {
        const result = await saveEntries(ctx, user, input);
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

    userRoute(app, bibliographyApi.saveCategories, async (input, user) => {
      return { entries: await saveCategories(ctx, user, input) };
    });

    userRoute(app, bibliographyApi.deleteCategories, async (input, user): Promise<ListStamp> => {
      return stamp(await deleteCategories(ctx, user, input));
    });

    userRoute(app, bibliographyApi.delete, async (input, user): Promise<ListStamp> => {
      return stamp(await deleteEntries(ctx, user, input));
    });

    userRoute(app, bibSourcesApi.list, async (_input, user) => ({
      sources: await listSources(ctx, user),
    }));
    userRoute(app, bibSourcesApi.add, async (input, user) => ({
      source: await addSource(ctx, user, input),
    }));
    userRoute(app, bibSourcesApi.sync, async (input, user) => ({ source: await syncNow(ctx, user, input) }));
    userRoute(app, bibSourcesApi.remove, async (input, user) => {
      await removeSource(ctx, user, input);
      return { ok: true as const };
    });
  };
}
