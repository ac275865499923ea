/** Spec section 9: the websocket's business constants (milliseconds). */
export const RECONNECT_DELAY_MS = 2_000;
/** A ping goes out after this much silence from the server... */
export const PING_AFTER_SILENCE_MS = 60_000;
/** ...and the socket is closed when no pong follows within this time. */
export const PONG_TIMEOUT_MS = 10_000;
/** The send throttle: first retry delay, growth per unsuccessful retry, and the cap. */
export const SEND_THROTTLE_START_MS = 80;
export const SEND_THROTTLE_FACTOR = 1.2;
export const SEND_THROTTLE_MAX_MS = 10_000;
/** Both sides keep their last 10 sent messages for a resend; more missing means a restart. */
export const RESEND_HISTORY_SIZE = 10;

/**
 * Ours, not the spec's: how long a receiver may wait before acknowledging what it got when it
 * has nothing of its own to send (the acknowledgement then rides on that message instead).
 * Kept well under the first throttle step so that the sender rarely resends needlessly.
 */
export const ACK_DELAY_MS = 20;

export interface TransportTiming {
  throttleStartMs: number;
  throttleFactor: number;
  throttleMaxMs: number;
  ackDelayMs: number;
  /** Sent messages kept for replay; also how many may await acknowledgement at once. */
  historySize: number;
}

export const DEFAULT_TRANSPORT_TIMING: TransportTiming = {
  throttleStartMs: SEND_THROTTLE_START_MS,
  throttleFactor: SEND_THROTTLE_FACTOR,
  throttleMaxMs: SEND_THROTTLE_MAX_MS,
  ackDelayMs: ACK_DELAY_MS,
  historySize: RESEND_HISTORY_SIZE,
};
