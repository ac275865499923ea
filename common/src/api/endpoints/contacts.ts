import { okResponse } from '../base';
import {
  contactsDeleteRequest,
  contactsListResponse,
  inviteAddRequest,
  inviteAddResponse,
  inviteClaimRequest,
  inviteClaimResponse,
  invitesAcceptResponse,
  invitesAnswerRequest,
} from '../contacts';
import { endpoint } from '../endpoint';

/** The contacts API lives under /api/user/ (spec section 7). */
export const contactsApi = {
  list: endpoint({ method: 'POST', path: '/api/user/contacts/list/', response: contactsListResponse }),
  invite: endpoint({
    method: 'POST',
    path: '/api/user/invites/add/',
    request: inviteAddRequest,
    response: inviteAddResponse,
  }),
  accept: endpoint({
    method: 'POST',
    path: '/api/user/invites/accept/',
    request: invitesAnswerRequest,
    response: invitesAcceptResponse,
  }),
  decline: endpoint({
    method: 'POST',
    path: '/api/user/invites/decline/',
    request: invitesAnswerRequest,
    response: okResponse,
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/user/contacts/delete/',
    request: contactsDeleteRequest,
    response: okResponse,
  }),
  /** Claims an invite link; the browser then goes to `redirect`. */
  claim: endpoint({
    method: 'POST',
    path: '/api/user/invite/',
    request: inviteClaimRequest,
    response: inviteClaimResponse,
  }),
};
