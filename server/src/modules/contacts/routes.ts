import type { okResponse } from '@scriptorium/common/api/base';
import type {
  contactsListResponse,
  InviteAddError,
  InviteErrorCode,
  inviteAddResponse,
  inviteClaimResponse,
  invitesAcceptResponse,
} from '@scriptorium/common/api/contacts';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { requireUser } from '../../http/session';
import { translator } from '../../i18n/translate';
import { addInvite, InviteError } from './commands/add-invite';
import { acceptInvites, declineInvites } from './commands/answer-invites';
import { claimInviteLink } from './commands/claim-invites';
import { deleteContacts } from './commands/delete-contacts';
import { listContacts } from './commands/list-contacts';

/** 2 (already connected or invited) is a conflict with existing state; 1 and 3 are bad input. */
const INVITE_ERROR_STATUS: Record<InviteErrorCode, number> = { 1: 400, 2: 409, 3: 400 };

/** Contacts and invites, under /api/user (spec section 7; paths in common contactsApi). */
export function contactsRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    route(app, contactsApi.list, async (request): Promise<z.infer<typeof contactsListResponse>> => {
      const user = requireUser(request);
      return { contacts: await listContacts(ctx.db, user.id) };
    });

    route(app, contactsApi.invite, async (request, reply) => {
      const user = requireUser(request);
      const { user_string } = parseInput(request, contactsApi.invite);
      try {
        const contact = await addInvite(ctx, request.log, {
          user,
          userString: user_string,
          language: request.language,
        });
        const body: z.infer<typeof inviteAddResponse> = { contact };
        return reply.code(201).send(body);
      } catch (error) {
        if (!(error instanceof InviteError)) throw error;
        const body: InviteAddError = {
          error: error.code,
          message: translator('contacts', request.language)(`inviteErrors.${error.code}`),
        };
        return reply.code(INVITE_ERROR_STATUS[error.code]).send(body);
      }
    });

    route(app, contactsApi.accept, async (request): Promise<z.infer<typeof invitesAcceptResponse>> => {
      const user = requireUser(request);
      const { invites } = parseInput(request, contactsApi.accept);
      const ids = invites.map((invite) => invite.id);
      return { contacts: await acceptInvites(ctx, request.log, { user, inviteIds: ids }) };
    });

    route(app, contactsApi.decline, async (request): Promise<z.infer<typeof okResponse>> => {
      const user = requireUser(request);
      const { invites } = parseInput(request, contactsApi.decline);
      await declineInvites(ctx, request.log, { user, inviteIds: invites.map((invite) => invite.id) });
      return { ok: true };
    });

    route(app, contactsApi.delete, async (request): Promise<z.infer<typeof okResponse>> => {
      const user = requireUser(request);
      const { contacts } = parseInput(request, contactsApi.delete);
      await deleteContacts(ctx, request.log, { user, contacts });
      return { ok: true };
    });

    route(app, contactsApi.claim, async (request): Promise<z.infer<typeof inviteClaimResponse>> => {
      const user = requireUser(request);
      const { key } = parseInput(request, contactsApi.claim);
      return { redirect: await claimInviteLink(ctx.db, user.id, key) };
    });
  };
}
