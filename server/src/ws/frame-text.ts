import type { AppMessage, Counters } from '@scriptorium/common/ws/messages';

/**
 * One message for many sockets (a relayed diff, presence, a system message) is serialised once:
 * its JSON without the closing brace is kept with the message object, and each socket's frame is
 * those bytes plus its own counters (`,"c":1,"s":7}`). The frame is byte for byte what
 * `JSON.stringify({ ...body, c, s })` gives, which is what a message sent to one socket gets.
 *
 * Only messages handed to shareBody() are kept (the registry's broadcast does it), so a message
 * object built for one socket is never held; a shared message must not be changed afterwards.
 * The bytes live as long as the message object (a session's outbox and replay history hold it).
 */
const shared = new WeakMap<AppMessage, Buffer>();

/** WS_SHARED_FRAMES=0 serialises every frame on its own again: the benchmark's baseline (bench/collab.ts leg 7). */
const sharing = process.env.WS_SHARED_FRAMES !== '0';

/** Serialises a message that is about to go to many sockets, once. */
export function shareBody(message: AppMessage): void {
  if (!sharing || shared.has(message)) return;
  const json = JSON.stringify(message);
  shared.set(message, Buffer.from(json.slice(0, -1)));
}

/** The frame of `body` with one socket's counters: a Buffer (UTF-8) for a shared body, else a string. */
export function countedFrame(body: AppMessage, counters: Counters): Buffer | string {
  const head = shared.get(body);
  if (!head) return JSON.stringify({ ...body, c: counters.c, s: counters.s });
  const tail = `,"c":${counters.c},"s":${counters.s}}`;
  const frame = Buffer.allocUnsafe(head.length + tail.length);
  head.copy(frame, 0);
  frame.write(tail, head.length, 'latin1');
  return frame;
}
