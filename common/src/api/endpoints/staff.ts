import { z } from 'zod';
import { connectionInfo, sendSystemMessageRequest } from '../../ws/api';
import { endpoint } from '../endpoint';

/** Staff-only calls under /api/base/ (spec section 7): system messages and the connection census. */
export const staffApi = {
  sendSystemMessage: endpoint({
    method: 'POST',
    path: '/api/base/send_system_message/',
    request: sendSystemMessageRequest,
    response: z.object({}),
  }),
  connectionInfo: endpoint({ method: 'GET', path: '/api/base/connection_info/', response: connectionInfo }),
};
