import type { Participant } from '@scriptorium/common/ws/document-messages';
import type { AppContext } from '../../../context';
import { liveHub } from '../../../ws/hub';
import { avatarUrl } from '../../user/avatar';
import { displayName } from '../../user/presenters';
import type { DocumentRoom, Socket, Topic, TopicPayload } from './room';

/**
 * Who is in a document: this process's sessions and, through the topic's channel, the other
 * processes' (repeated by a heartbeat, forgotten when a process falls silent).
 */

/** A process not heard for this many heartbeats has crashed: its participants are dropped. */
export const PRESENCE_MISSED_BEATS = 3;

function processId(ctx: AppContext): string {
  return liveHub(ctx)?.fanOut.processId ?? 'local';
}

export function participantOf(socket: Socket): Participant {
  const user = socket.user;
  return {
    session_id: socket.sessionId,
    id: user.id,
    name: displayName(user),
    username: user.username,
    avatar: avatarUrl(user.avatar),
  };
}

function presencePayload(ctx: AppContext, room: DocumentRoom, ask: boolean): TopicPayload {
  return {
    kind: 'presence',
    process: processId(ctx),
    participants: [...room.sessions.values()].map((s) => s.participant),
    ask,
  };
}

/** Tells this process's editors who is here, and the other processes who is here with us. */
export async function announcePresence(topic: Topic, room: DocumentRoom, ask: boolean): Promise<void> {
  topic.sendLocal({ type: 'participants', participants: room.participants() });
  await topic.publish(presencePayload(topic.ctx, room, ask));
}

/** Another process told us its participants (or asked for ours). */
export async function heardPresence(
  topic: Topic,
  room: DocumentRoom,
  payload: Extract<TopicPayload, { kind: 'presence' }>,
): Promise<void> {
  if (payload.process === processId(topic.ctx)) return;
  const known = room.remote.get(payload.process);
  const unchanged =
    known !== undefined && JSON.stringify(known.participants) === JSON.stringify(payload.participants);
  if (payload.participants.length)
    room.remote.set(payload.process, { participants: payload.participants, heardAt: Date.now() });
  else room.remote.delete(payload.process);
  // A heartbeat repeating what we know changes nothing for the editors.
  if (!unchanged || payload.ask) topic.sendLocal({ type: 'participants', participants: room.participants() });
  if (payload.ask && room.sessions.size > 0) await announcePresence(topic, room, false);
}

/**
 * The presence heartbeat: every process repeats its participants of each open document, and
 * forgets the participants of a process it has not heard for PRESENCE_MISSED_BEATS periods (a
 * process that died without saying goodbye, e.g. kill -9). Started once, with the first room.
 */
export function presenceHeartbeat(rooms: ReadonlyMap<number, DocumentRoom>) {
  let timer: ReturnType<typeof setInterval> | null = null;
  return function start(ctx: AppContext): void {
    if (timer) return;
    const period = ctx.config.presenceHeartbeatMs;
    timer = setInterval(() => {
      const now = Date.now();
      for (const room of rooms.values()) {
        const topic = room.topic;
        if (!topic) continue;
        let dropped = false;
        for (const [process, remote] of room.remote)
          if (now - remote.heardAt > PRESENCE_MISSED_BEATS * period) {
            room.remote.delete(process);
            dropped = true;
          }
        if (dropped) topic.sendLocal({ type: 'participants', participants: room.participants() });
        if (room.sessions.size > 0)
          void topic.publish(presencePayload(topic.ctx, room, false)).catch(() => undefined); // Redis away: the next beat tries again
      }
    }, period);
    timer.unref();
  };
}
