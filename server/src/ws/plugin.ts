import { randomUUID } from 'node:crypto';
import type net from 'node:net';
import type { Duplex } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import fastifyWebsocket from '@fastify/websocket';
import { type AppMessage, MAX_FRAME_BYTES } from '@scriptorium/common/ws/messages';
import type { TransportTiming } from '@scriptorium/common/ws/timing';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../context';
import type { UserRow } from '../db/rows';
import { addressScope } from '../http/client-address';
import { originAllowed } from '../http/origin';
import { userFromCookieHeader } from '../http/session';
import { type BaseEndpointExtension, createBaseEndpoint } from './base-endpoint';
import { CLOSE_GOING_AWAY, CLOSE_NORMAL, CLOSE_POLICY_VIOLATION, ServerConnection } from './connection';
import { closeControlSocket, listenControlSocket } from './control-socket';
import type { AnyWsEndpoint, EndpointSocket, EndpointTopic } from './endpoint';
import { TopicQueue } from './endpoint';
import { createFanOut, type FanOut } from './fan-out';
import { type LiveHub, setLiveHub, topicKey } from './hub';
import { wsPathPrefix } from './paths';
import { ConnectionRegistry, type RegistryOptions } from './registry';
import { createSocketCounter, type SocketQuota } from './socket-limits';

export interface WebsocketPluginOptions {
  /** Default: Redis pub/sub when REDIS_URL is set, else in memory. */
  fanOut?: FanOut;
  timing?: Partial<TransportTiming>;
  registry?: Omit<RegistryOptions, 'onChange'>;
  /** Endpoints besides /base/ (the document endpoint, those of server plugins). */
  endpoints?: AnyWsEndpoint[];
}

const extensions = new WeakMap<LiveHub, BaseEndpointExtension>();

/** Features (and tests) that take client messages on ${ws_url_base}/base/ register them here. */
export function baseEndpoint(hub: LiveHub): BaseEndpointExtension {
  const extension = extensions.get(hub);
  if (!extension) throw new Error('not a hub of websocketPlugin');
  return extension;
}

/**
 * Cross-site websocket hijacking: a browser sends the session cookie with a socket any page opens,
 * so the Origin must be this site's (originAllowed).
 */
async function admitUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  if (!originAllowed(request.headers.origin, request, ctx.config)) {
    request.log.warn({ origin: request.headers.origin }, 'websocket from a foreign origin refused');
    return null;
  }
  return request.user ?? (await userFromCookieHeader(ctx, request.headers.cookie));
}

/** The close reasons of a socket refused for the number its user or its address holds open. */
export const TOO_MANY = {
  user: 'too many connections of this user',
  address: 'too many connections from this address',
} as const;

/** The close reason of a socket whose right changed while it was open (the client reconnects). */
export const ACCESS_CHANGED = 'access changed';

function deny(socket: WebSocket): void {
  socket.send(JSON.stringify({ type: 'access_denied', c: 0, s: 0 }));
  socket.close(CLOSE_POLICY_VIOLATION, 'access denied');
}

/** The id of `/<name>/<id>/`: a positive integer, or null when the path has none or a bad one. */
function parseId(raw: string | undefined): number | null {
  if (raw === undefined || !/^[1-9][0-9]{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

interface Admitted {
  user: UserRow;
  admission: unknown;
}

/** The mutable side of an EndpointSocket: a readmission may change what it holds. */
interface LiveSocket extends EndpointSocket<AppMessage, unknown> {
  admission: unknown;
  sessionId: string;
}

/**
 * The live connection: every websocket endpoint under ${ws_url_base} (the app-wide /base/, the
 * document endpoint, those of plugins), one ordered queue per topic, and the fan-out between
 * processes (system messages, ended sessions, changed rights, each endpoint's topics).
 */
export function websocketPlugin(ctx: AppContext, options: WebsocketPluginOptions = {}): FastifyPluginAsync {
  return async (app) => {
    const log = (message: string, error?: unknown) => app.log.warn({ err: error }, message);
    const fanOut = options.fanOut ?? (await createFanOut(ctx.config, { log }));
    const counter = await createSocketCounter(ctx.config, log);
    const registry = new ConnectionRegistry({ ...options.registry, onChange: () => fanOut.censusChanged() });
    fanOut.setLocalCensus(() => registry.census());
    const hub: LiveHub = { registry, fanOut };
    const base = createBaseEndpoint();
    extensions.set(hub, base.extension);
    setLiveHub(ctx, hub);
    const queue = new TopicQueue((error) => log('a websocket handler failed', error));

    const endpoints = new Map<string, AnyWsEndpoint>();
    for (const endpoint of [base.endpoint, ...(options.endpoints ?? [])]) {
      if (endpoints.has(endpoint.name)) throw new Error(`two websocket endpoints named ${endpoint.name}`);
      endpoints.set(endpoint.name, endpoint);
    }

    /** Open sockets per topic of this process, and the topic's fan-out subscription. */
    const topics = new Map<
      string,
      { topic: EndpointTopic<AppMessage>; sockets: Set<LiveSocket>; stop: Promise<() => Promise<void>> }
    >();
    const sockets = new Map<ServerConnection, LiveSocket>();

    function makeTopic(endpoint: AnyWsEndpoint, id: number | null): EndpointTopic<AppMessage> {
      const key = topicKey(endpoint.name, id);
      return {
        ctx,
        name: endpoint.name,
        id,
        sendLocal: (message, filter) => {
          registry.broadcast(
            message,
            filter && ((target) => filter({ userId: target.userId, sessionId: target.sessionId })),
            key,
          );
        },
        publish: (payload) => fanOut.publishTopic(key, payload),
        sockets: () => [...(topics.get(key)?.sockets ?? [])],
      };
    }

    /** Joins a socket to its topic; the first socket of a topic subscribes to its channel. */
    async function join(endpoint: AnyWsEndpoint, socket: LiveSocket): Promise<void> {
      const key = socket.connection.scope;
      let entry = topics.get(key);
      if (!entry) {
        const topic = socket.topic;
        const stop = fanOut.listenTopic(key, (payload) => {
          const handler = endpoint.topicMessage;
          if (handler) void queue.run(key, () => handler(topic, payload));
        });
        entry = { topic, sockets: new Set(), stop };
        topics.set(key, entry);
      }
      entry.sockets.add(socket);
      await entry.stop;
    }

    async function leave(socket: LiveSocket): Promise<void> {
      const key = socket.connection.scope;
      const entry = topics.get(key);
      if (!entry?.sockets.delete(socket) || entry.sockets.size > 0) return;
      topics.delete(key);
      await (await entry.stop)();
    }

    fanOut.onEvent((event) => {
      if (event.kind === 'system_message') {
        registry.broadcast({ type: 'system_message', message: event.message }, undefined, 'base');
      } else if (event.kind === 'to_users') {
        const users = new Set(event.userIds);
        registry.broadcast(event.message, (target) => users.has(target.userId), 'base');
      } else if (event.kind === 'sessions_ended') {
        for (const connection of registry.connectionsOfSessions(event.sessionHashes)) connection.deny();
      } else if (event.kind === 'readmit') {
        const endpoint = endpoints.get(event.endpoint);
        const key = topicKey(event.endpoint, event.id);
        if (!endpoint) return;
        void queue.run(key, async () => {
          for (const socket of [...(topics.get(key)?.sockets ?? [])]) {
            const admission = await endpoint.admit(ctx, socket.user, event.id);
            if (admission === null) socket.deny();
            // Admissions are plain data (rights, flags, ids).
            else if (!isDeepStrictEqual(admission, socket.admission)) socket.readmitted(admission);
          }
        });
      }
    });

    await app.register(fastifyWebsocket, {
      // Bigger frames are refused by ws itself: close code 1009 before the frame is buffered whole.
      options: { maxPayload: MAX_FRAME_BYTES },
      preClose: closeSockets,
      errorHandler: (error, socket, request) => {
        request.log.info({ err: error }, 'websocket error');
        // ws has started a close handshake with the fitting code; do not cut it short at once.
        setTimeout(() => socket.terminate(), 1000).unref();
      },
    });

    const prefix = wsPathPrefix(ctx.config);
    for (const endpoint of endpoints.values()) {
      const admitted = new WeakMap<FastifyRequest, Admitted | null>();
      const idOf = (request: FastifyRequest) =>
        endpoint.withId ? parseId((request.params as { id?: string }).id) : null;
      app.get(
        endpoint.withId ? `${prefix}/${endpoint.name}/:id/` : `${prefix}/${endpoint.name}/`,
        {
          websocket: true,
          preValidation: async (request) => {
            const user = await admitUser(ctx, request);
            const id = idOf(request);
            if (!user || (endpoint.withId && id === null)) {
              admitted.set(request, null);
              return;
            }
            const admission = await endpoint.admit(ctx, user, id);
            admitted.set(request, admission === null ? null : { user, admission });
          },
        },
        (ws, request) => {
          const entry = admitted.get(request);
          if (!entry) {
            deny(ws);
            return;
          }
          // A page needs one or two sockets; a user or an address opening more than many tabs'
          // worth is a leak or an attack on the service. Nothing is read until a place is taken.
          ws.pause();
          const place = randomUUID();
          const quotas: SocketQuota[] = [
            { key: `user:${entry.user.id}`, limit: ctx.config.wsMaxSocketsPerUser },
            { key: `address:${addressScope(request.ip)}`, limit: ctx.config.wsMaxSocketsPerAddress },
          ];
          const released = () =>
            void counter
              .release(
                place,
                quotas.map(({ key }) => key),
              )
              .catch((error) => log('could not release a socket place', error));
          void counter
            .acquire(place, quotas)
            .catch((error) => {
              // The counter is away (Redis): sockets are not refused for that.
              log('could not count a socket', error);
              return null;
            })
            .then((full) => {
              // A paused socket would not read the client's answer to our close.
              ws.resume();
              if (full !== null) {
                request.log.warn(
                  { quota: full.replace(/:.*/, '') },
                  'websocket refused: too many connections',
                );
                ws.close(CLOSE_POLICY_VIOLATION, TOO_MANY[full.startsWith('user:') ? 'user' : 'address']);
              } else if (ws.readyState !== ws.OPEN) released();
              else start(ws, request, entry, released);
            });
        },
      );

      function start(ws: WebSocket, request: FastifyRequest, entry: Admitted, released: () => void): void {
        const id = idOf(request);
        const key = topicKey(endpoint.name, id);
        const topic = makeTopic(endpoint, id);
        // Only the logger is kept: the request (headers, raw message) is not needed after the upgrade.
        const logger = request.log;
        let live: LiveSocket | null = null;
        const connection = new ServerConnection(ws, {
          userId: entry.user.id,
          scope: key,
          sessionHash: request.sessionHash ?? null,
          registry,
          clientMessages: endpoint.clientMessages,
          onOpened: (opened, resumed) => {
            const sessionId = opened.sessionId;
            if (!sessionId) return;
            const socket: LiveSocket = {
              user: entry.user,
              id,
              sessionId,
              admission: entry.admission,
              topic,
              connection: opened,
              send: (message) => opened.send(message),
              deny: () => opened.deny(),
              close: (reason) => opened.close(CLOSE_POLICY_VIOLATION, reason),
              readmitted: (admission) => {
                socket.admission = admission;
                opened.close(CLOSE_NORMAL, ACCESS_CHANGED);
              },
            };
            live = socket;
            sockets.set(opened, socket);
            void queue.run(key, async () => {
              // The right is read again at subscribe: a socket opened before its right was
              // removed or lowered must not work with what the upgrade found (issue 50).
              const admission = await endpoint.admit(ctx, entry.user, id);
              if (admission === null) return opened.deny();
              socket.admission = admission;
              await join(endpoint, socket);
              if (opened.isOpen) await endpoint.opened?.(socket, resumed);
            });
          },
          onMessage: (_, message) => {
            const socket = live;
            const handle = endpoint.handle;
            if (!socket || !handle) return;
            const receivedAt = Date.now();
            void queue.run(key, () => handle(socket, message, receivedAt));
          },
          onClosed: (closed) => {
            released();
            const socket = sockets.get(closed);
            if (!socket) return;
            sockets.delete(closed);
            void queue.run(key, async () => {
              await leave(socket);
              await endpoint.closed?.(socket);
            });
          },
          timing: options.timing,
          log: (message, details) => logger.info(details ?? {}, message),
        });
        connection.start();
      }
    }

    let control: net.Server | null = null;
    app.addHook('onReady', async () => {
      control = await listenControlSocket(ctx.config, (event) => fanOut.publish(event), log);
    });
    app.addHook('onClose', async () => {
      await closeControlSocket(control);
      setLiveHub(ctx, null);
      registry.close();
      // The last sockets' leave (an automatic revision) runs here; a stop that hangs shows where.
      app.log.info("stopping: waiting for the sockets' last work");
      await queue.idle();
      await fanOut.close();
      await counter.close();
      app.log.info('stopping: sockets done');
    });
  };
}

/** How long a stopping server waits for a peer to answer its close frame. */
const CLOSE_GRACE_MS = 1000;

/**
 * On stop, every socket is closed as "going away"; a peer that does not answer (its network is
 * gone: a laptop closed, a train in a tunnel) is cut after a short grace. Without it, ws waits 30 s
 * for the answer, and the server's stop with it.
 */
function closeSockets(this: FastifyInstance, done: () => void): void {
  const server = this.websocketServer;
  // A tab that reconnects during the grace is refused (503), but its connection would stay open,
  // and the HTTP server's close waits for every connection: the stop hung (the fault test).
  this.server.on('upgrade', (_request: unknown, socket: Duplex) => {
    socket.on('error', () => {});
    setImmediate(() => socket.destroy());
  });
  for (const client of server.clients) client.close(CLOSE_GOING_AWAY);
  const stragglers = setTimeout(() => {
    for (const client of server.clients) client.terminate();
  }, CLOSE_GRACE_MS);
  server.close(() => {
    clearTimeout(stragglers);
    this.log.info('stopping: websockets closed');
    done();
  });
}
