import type { ConnectionInfo } from '@scriptorium/common/ws/api';
import type { AppContext } from '../../../context';
import { liveHub } from '../../../ws/hub';

/** Live connections over every server process that reports its figures (Redis), or this one. */
export async function connectionInfo(ctx: AppContext): Promise<ConnectionInfo> {
  const census = (await liveHub(ctx)?.fanOut.census()) ?? [];
  const users = new Set(census.flatMap((entry) => entry.userIds));
  return {
    users: users.size,
    sockets: census.reduce((sum, entry) => sum + entry.sockets, 0),
    processes: census.length,
  };
}
