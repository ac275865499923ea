import * as z from 'zod/mini';

/**
 * Spec section 3: a websocket message has a type, the counters c (client messages counted) and
 * s (server messages counted), base (for a redirect) and message (for system messages).
 *
 * Three kinds of frames travel on a socket:
 *   - transport frames without counters: ping, pong, request_resend;
 *   - stamped frames: they carry the current c and s but are not counted themselves and are
 *     acted on at once, whatever arrived before them (ack, restart, access_denied, redirect);
 *   - counted frames: the handshake (welcome, subscribe, subscribed) and every application
 *     message; each one raises its sender's counter by one and is delivered in order, once.
 *
 * Written with zod/mini: the logged-in overview's chunk loads this module at start (the app-wide
 * connection), and classic zod there cost 13-20 ms of main-thread time (issue 23). Schemas of
 * either API are accepted as application messages.
 */

/** Frames above this size are refused by the server (ws maxPayload) and never sent by us. */
export const MAX_FRAME_BYTES = 256 * 1024;
/** Longest system message staff can send. */
export const SYSTEM_MESSAGE_MAX_LENGTH = 5000;

const counter = z.number().check(z.int(), z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER));
const countersShape = { c: counter, s: counter };

export interface Counters {
  c: number;
  s: number;
}

// Transport frames (no counters).
export const pingMessage = z.object({ type: z.literal('ping') });
export const pongMessage = z.object({ type: z.literal('pong') });
/** "Resend what you sent after your message number `from`": `from` is how many I have in order. */
export const requestResendMessage = z.object({ type: z.literal('request_resend'), from: counter });

// Stamped frames.
/** A pure acknowledgement, for a receiver that has nothing of its own to send back. */
export const ackMessage = z.object({ type: z.literal('ack'), ...countersShape });
/** The sender can no longer replay what the peer misses: both drop the socket and start over. */
export const restartMessage = z.object({ type: z.literal('restart'), ...countersShape });
export const accessDeniedMessage = z.object({ type: z.literal('access_denied'), ...countersShape });
/** Reconnect at another host; `base` is a host[:port] or a ws(s):// origin. */
export const redirectMessage = z.object({
  type: z.literal('redirect'),
  base: z.string().check(z.minLength(1), z.maxLength(255)),
  ...countersShape,
});

// Handshake (counted).
export const welcomeMessage = z.object({ type: z.literal('welcome'), ...countersShape });
/**
 * The client's first counted message. `session` names the connector across its sockets so that a
 * server can resume it: `seen` is how many server application messages the client has taken in
 * this session, `next` the session number of the first client message it still has to deliver.
 * The three resume fields are ours: the spec's plain subscribe (type and counters only) starts a
 * new session that simply cannot be resumed.
 */
export const subscribeMessage = z.object({
  type: z.literal('subscribe'),
  ...countersShape,
  session: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/))),
  seen: z.optional(counter),
  next: z.optional(counter.check(z.minimum(1))),
});
/** `seen`: how many client application messages of this session the server has taken. */
export const subscribedMessage = z.object({ type: z.literal('subscribed'), ...countersShape, seen: counter });

// Application messages of the app-wide connection ${ws_url_base}/base/.
export const systemMessage = z.object({
  type: z.literal('system_message'),
  message: z.string().check(z.trim(), z.minLength(1), z.maxLength(SYSTEM_MESSAGE_MAX_LENGTH)),
});

/** A document's title changed (a co-author edited its title node): overviews show it at once. */
export const documentTitleMessage = z.object({
  type: z.literal('document_title'),
  id: z.number().check(z.int(), z.positive()),
  title: z.string(),
});

export type PingMessage = z.infer<typeof pingMessage>;
export type PongMessage = z.infer<typeof pongMessage>;
export type RequestResendMessage = z.infer<typeof requestResendMessage>;
export type AckMessage = z.infer<typeof ackMessage>;
export type RestartMessage = z.infer<typeof restartMessage>;
export type AccessDeniedMessage = z.infer<typeof accessDeniedMessage>;
export type RedirectMessage = z.infer<typeof redirectMessage>;
export type WelcomeMessage = z.infer<typeof welcomeMessage>;
export type SubscribeMessage = z.infer<typeof subscribeMessage>;
export type SubscribedMessage = z.infer<typeof subscribedMessage>;
export type SystemMessage = z.infer<typeof systemMessage>;
export type DocumentTitleMessage = z.infer<typeof documentTitleMessage>;

/** An application message as code writes it; the transport adds the counters. */
export interface AppMessage {
  type: string;
  [field: string]: unknown;
}
export type AppFrame = AppMessage & Counters;

export type UncountedFrame = PingMessage | PongMessage | RequestResendMessage;
export type StampedFrame = AckMessage | RestartMessage | AccessDeniedMessage | RedirectMessage;
export type HandshakeFrame = WelcomeMessage | SubscribeMessage | SubscribedMessage;
export type Frame = UncountedFrame | StampedFrame | HandshakeFrame | AppFrame;
/** A frame of a peer whose application messages are `M` (as parseFrame() read them). */
export type PeerFrame<M extends AppMessage = AppMessage> =
  | UncountedFrame
  | StampedFrame
  | HandshakeFrame
  | (M & Counters);

const transportSchemas = {
  ping: pingMessage,
  pong: pongMessage,
  request_resend: requestResendMessage,
  ack: ackMessage,
  restart: restartMessage,
  access_denied: accessDeniedMessage,
  redirect: redirectMessage,
  welcome: welcomeMessage,
  subscribe: subscribeMessage,
  subscribed: subscribedMessage,
} as const;
type TransportType = keyof typeof transportSchemas;

export const UNCOUNTED_TYPES: ReadonlySet<string> = new Set(['ping', 'pong', 'request_resend']);
export const STAMPED_TYPES: ReadonlySet<string> = new Set(['ack', 'restart', 'access_denied', 'redirect']);
export const HANDSHAKE_TYPES: ReadonlySet<string> = new Set(['welcome', 'subscribe', 'subscribed']);

/** Which frames each side may send; anything else from the peer is a protocol error. */
const SENDABLE: Record<'client' | 'server', ReadonlySet<string>> = {
  client: new Set(['ping', 'request_resend', 'ack', 'restart', 'subscribe']),
  server: new Set([
    'pong',
    'request_resend',
    'ack',
    'restart',
    'access_denied',
    'redirect',
    'welcome',
    'subscribed',
  ]),
};

export function isTransportType(type: string): boolean {
  return Object.hasOwn(transportSchemas, type);
}

export function isAppFrame<M extends AppMessage>(frame: PeerFrame<M>): frame is M & Counters {
  return !isTransportType(frame.type);
}

const appEnvelope = z.looseObject({
  type: z.string().check(z.regex(/^[a-z][a-z0-9_]{0,63}$/)),
  ...countersShape,
});

/**
 * Schemas of an endpoint's application messages by type, made with `zod` or `zod/mini`; `M`, the
 * union of the messages they read, types what parseFrame() and the transport deliver.
 */
export type AppSchemas<M extends AppMessage = AppMessage> = Readonly<Record<string, z.core.$ZodType<M>>>;

export type ParseResult<M extends AppMessage = AppMessage> =
  | { ok: true; frame: PeerFrame<M> }
  | { ok: false; reason: string };

function describe(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/**
 * Reads one frame sent by `from`. Application messages are checked against `appSchemas` (by type);
 * a type that is neither a transport type nor listed there is refused, so is malformed JSON.
 * The reason is short enough for a websocket close frame (123 bytes).
 */
export function parseFrame<M extends AppMessage = AppMessage>(
  text: string,
  from: 'client' | 'server',
  // Typed only when asked for (parseFrame<M>): a narrow schema map read as any app message by default.
  appSchemas: AppSchemas<NoInfer<M>>,
): ParseResult<M> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'invalid message: not JSON' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, reason: 'invalid message: not an object' };
  }
  const type = (data as { type?: unknown }).type;
  if (typeof type !== 'string') return { ok: false, reason: 'invalid message: no type' };
  const shortType = type.slice(0, 40);
  if (isTransportType(type)) {
    if (!SENDABLE[from].has(type)) return { ok: false, reason: `invalid message: ${shortType} not allowed` };
    const parsed = z.safeParse(transportSchemas[type as TransportType], data);
    if (!parsed.success)
      return { ok: false, reason: `invalid ${shortType}: ${describe(parsed.error)}`.slice(0, 120) };
    return { ok: true, frame: parsed.data };
  }
  const schema = Object.hasOwn(appSchemas, type) ? appSchemas[type] : undefined;
  if (!schema) return { ok: false, reason: `invalid message: unknown type ${shortType}` };
  const envelope = z.safeParse(appEnvelope, data);
  if (!envelope.success)
    return { ok: false, reason: `invalid ${shortType}: ${describe(envelope.error)}`.slice(0, 120) };
  const body = z.safeParse(schema, data);
  if (!body.success)
    return { ok: false, reason: `invalid ${shortType}: ${describe(body.error)}`.slice(0, 120) };
  return { ok: true, frame: { ...body.data, c: envelope.data.c, s: envelope.data.s } };
}

/** Application messages the server sends on ${ws_url_base}/base/. */
export const BASE_SERVER_APP_SCHEMAS: AppSchemas = {
  system_message: systemMessage,
  document_title: documentTitleMessage,
};
