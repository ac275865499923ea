import { staffApi } from '@scriptorium/common/api/endpoints/staff';
import { connectionInfo } from '@scriptorium/common/ws/api';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { parseInput, route } from '../../http/endpoint';
import { registerStaffOnly } from '../../http/staff-only';
import { sendSystemMessage } from '../../ws/system-message';
import { connectionInfo as readConnectionInfo } from './commands/connection-info';

/**
 * Staff routes (common staffApi): send a system message to every connected user of every process,
 * and the census of live connections over all processes.
 */
export function staffRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    registerStaffOnly(app);
    route(app, staffApi.sendSystemMessage, async (request) => {
      const { message } = parseInput(request, staffApi.sendSystemMessage);
      await sendSystemMessage(ctx, message);
      return {};
    });

    route(app, staffApi.connectionInfo, async () => {
      return connectionInfo.parse(await readConnectionInfo(ctx));
    });
  };
}
