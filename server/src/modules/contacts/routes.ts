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
import { route } from '../../http/endpoint';
import { requireUser } from '../../http/session';
import { translator } from '../../i18n/translate';
import { userRoute } from '../user-route';
import { addInvite, InviteError } from './commands/add-invite';
import { acceptInvites } from './commands/answer-invites';
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
      return { contacts: await listContacts(ctx, user) };
    });

    userRoute(app, contactsApi.invite, async ({ user_string }, user, request, reply) => {
      try {
        const contact = await addInvite(ctx, user, { user_string, language: request.language }, request.log);
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

    userRoute(
      app,
      contactsApi.accept,
      async ({ invites }, user, request): Promise<z.infer<typeof invitesAcceptResponse>> => {
        const ids = invites.map((invite) => invite.id);
        return { contacts: await acceptInvites(ctx, user, { ids }, request.log) };
      },
    );

    userRoute(
      app,
      contactsApi.decline,
      async ({ invites }, user, request): Promise<z.infer<typeof okResponse>> => {
        // Declining deletes the received invites, as the contacts list's delete does with them.
        const received = invites.map((invite) => ({ id: invite.id, type: 'to_userinvite' as const }));
        await deleteContacts(ctx, user, { contacts: received }, request.log);
        return { ok: true };
      },
    );

    userRoute(
      app,
      contactsApi.delete,
      async ({ contacts }, user, request): Promise<z.infer<typeof okResponse>> => {
        await deleteContacts(ctx, user, { contacts }, request.log);
        return { ok: true };
      },
    );

    userRoute(app, contactsApi.claim, async (input, user): Promise<z.infer<typeof inviteClaimResponse>> => {
      return { redirect: await claimInviteLink(ctx, user, input) };
    });
  };
}
