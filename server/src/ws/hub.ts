import type { DocumentTitleMessage } from '@scriptorium/common/ws/messages';
import type { AppContext } from '../context';
import type { FanOut } from './fan-out';
import type { ConnectionRegistry } from './registry';

/** The live-connection machinery of one server process. */
export interface LiveHub {
  registry: ConnectionRegistry;
  fanOut: FanOut;
}

// Keyed by the context rather than stored in it: AppContext belongs to the HTTP foundation.
const hubs = new WeakMap<AppContext | Pick<AppContext, 'config'>, LiveHub>();

export function setLiveHub(ctx: AppContext, hub: LiveHub | null): void {
  if (hub) hubs.set(ctx, hub);
  else hubs.delete(ctx);
}

/** The hub of the server running with this context, or undefined (e.g. in the CLI). */
export function liveHub(ctx: AppContext | Pick<AppContext, 'config'>): LiveHub | undefined {
  return hubs.get(ctx);
}

/** The fan-out channel of an endpoint's topic: the endpoint's name, and the id when it has one. */
export function topicKey(endpoint: string, id: number | null): string {
  return id === null ? endpoint : `${endpoint}/${id}`;
}

/**
 * Publishes a payload on an endpoint's topic, to every process (this one too), as a socket's
 * handler does with topic.publish; for changes made outside a socket (the public API).
 */
export async function publishToTopic(
  ctx: AppContext,
  endpoint: string,
  id: number,
  payload: unknown,
): Promise<void> {
  await liveHub(ctx)?.fanOut.publishTopic(topicKey(endpoint, id), payload);
}

/**
 * Rights to an endpoint's topic changed (a document's rights were saved): every process admits its
 * sockets on it again and sends access_denied to those that lost their right. Call it after commit.
 */
export async function readmitLive(ctx: AppContext, endpoint: string, id: number | null): Promise<void> {
  const hub = liveHub(ctx);
  if (!hub) return;
  await hub.fanOut.publish({ kind: 'readmit', endpoint, id });
}

/** Sends a message to the app-wide sockets of these users, on every process. */
export async function sendToUsers(
  ctx: AppContext,
  userIds: number[],
  message: DocumentTitleMessage,
): Promise<void> {
  const hub = liveHub(ctx);
  if (!hub || userIds.length === 0) return;
  await hub.fanOut.publish({ kind: 'to_users', userIds, message });
}

/**
 * These login sessions ended (logout, password change or reset, account deleted): every process
 * sends access_denied to the sockets admitted with them. Call it after the rows are gone.
 */
export async function endLiveSessions(ctx: AppContext, sessionHashes: string[]): Promise<void> {
  const hub = liveHub(ctx);
  if (!hub || sessionHashes.length === 0) return;
  await hub.fanOut.publish({ kind: 'sessions_ended', sessionHashes });
}
