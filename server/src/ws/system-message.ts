import { sendSystemMessageRequest } from '@scriptorium/common/ws/api';
import type { AppContext } from '../context';
import { sendThroughControlSocket } from './control-socket';
import { createFanOut } from './fan-out';
import { liveHub } from './hub';

export class NoServerReachedError extends Error {
  constructor() {
    super('No running server received the system message');
    this.name = 'NoServerReachedError';
  }
}

/**
 * Shows `text` to every connected user of every server process. Inside a server process it goes
 * through that process's fan-out; from elsewhere (the CLI) through Redis when REDIS_URL is set,
 * otherwise through the control socket of the server sharing DATA_DIR.
 * Resolves with how many server processes took it; throws NoServerReachedError when none did.
 */
export async function sendSystemMessage(
  ctx: AppContext | Pick<AppContext, 'config'>,
  text: string,
): Promise<number> {
  const { message } = sendSystemMessageRequest.parse({ message: text });
  const event = { kind: 'system_message' as const, message };
  const hub = liveHub(ctx);
  let processes: number | null;
  if (hub) {
    processes = await hub.fanOut.publish(event);
  } else if (ctx.config.redisUrl) {
    const fanOut = await createFanOut(ctx.config, { publishOnly: true });
    try {
      processes = await fanOut.publish(event);
    } finally {
      await fanOut.close();
    }
  } else {
    processes = await sendThroughControlSocket(ctx.config, event);
  }
  if (!processes) throw new NoServerReachedError();
  return processes;
}
