import { type ConnectionInfo, connectionInfo, sendSystemMessageRequest } from '@scriptorium/common/ws/api';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { parseForm } from '../../http/errors';
import { sendSystemMessage } from '../../ws/system-message';
import { connectionInfo as readConnectionInfo } from './commands/connection-info';
import { requireStaff } from './policies';

/**
 * Staff routes under /api/base: POST send_system_message/ (shown to every connected user of every
 * process) and GET connection_info/ (live connections over all processes).
 */
export function staffRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.post('/send_system_message/', async (request) => {
      requireStaff(request);
      const { message } = parseForm(request, sendSystemMessageRequest);
      await sendSystemMessage(ctx, message);
      return {};
    });

    app.get('/connection_info/', async (request): Promise<ConnectionInfo> => {
      requireStaff(request);
      return connectionInfo.parse(await readConnectionInfo(ctx));
    });
  };
}
