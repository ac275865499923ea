import { okResponse } from '../base';
import * as contacts from '../contacts';
import { endpoint } from '../endpoint';

/** The contacts API lives under /api/user/ (spec section 7). */
export const contactsApi = {
  list: endpoint({
    method: 'POST',
    path: '/api/user/contacts/list/',
    response: contacts.contactsListResponse,
  }),
  invite: endpoint({
    method: 'POST',
    path: '/api/user/invites/add/',
    request: contacts.inviteAddRequest,
    response: contacts.inviteAddResponse,
  }),
  accept: endpoint({
    method: 'POST',
    path: '/api/user/invites/accept/',
    request: contacts.invitesAnswerRequest,
    response: contacts.invitesAcceptResponse,
  }),
  decline: endpoint({
    method: 'POST',
    path: '/api/user/invites/decline/',
    request: contacts.invitesAnswerRequest,
    response: okResponse,
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/user/contacts/delete/',
    request: contacts.contactsDeleteRequest,
    response: okResponse,
  }),
  /** Claims an invite link; the browser then goes to `redirect`. */
  claim: endpoint({
    method: 'POST',
    path: '/api/user/invite/',
    request: contacts.inviteClaimRequest,
    response: contacts.inviteClaimResponse,
  }),
};
