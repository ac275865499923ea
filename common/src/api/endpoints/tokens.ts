import { okResponse } from '../base';
import { endpoint } from '../endpoint';
import * as tokens from '../tokens';

/**
 * Personal access tokens (issue 57), managed on the profile page with the login session only:
 * a token never reaches these (see tokenScope in endpoint.ts).
 */
export const tokensApi = {
  list: endpoint({ method: 'POST', path: '/api/user/tokens/list/', response: tokens.tokenListResponse }),
  create: endpoint({
    method: 'POST',
    path: '/api/user/tokens/create/',
    request: tokens.tokenCreateRequest,
    response: tokens.tokenCreateResponse,
  }),
  revoke: endpoint({
    method: 'POST',
    path: '/api/user/tokens/revoke/',
    request: tokens.tokenRevokeRequest,
    response: okResponse,
  }),
};
