import type net from 'node:net';
import fastifyWebsocket from '@fastify/websocket';
import { staffApi } from '@scriptorium/common/api/endpoints/staff';
import { connectionInfo } from '@scriptorium/common/ws/api';
import { type AppFrame, type AppMessage, MAX_FRAME_BYTES } from '@scriptorium/common/ws/messages';
import type { TransportTiming } from '@scriptorium/common/ws/timing';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { ZodType } from 'zod';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { parseInput, route } from '../http/endpoint';
import { HttpError } from '../http/errors';
import { requireUser, userFromCookieHeader } from '../http/session';
import type { UserRow } from '../modules/user/queries';
import { CLOSE_POLICY_VIOLATION, ServerConnection } from './connection';
import { closeControlSocket, listenControlSocket } from './control-socket';
import { createFanOut, type FanOut } from './fan-out';
import { type LiveHub, setLiveHub } from './hub';
import { ConnectionRegistry, type RegistryOptions } from './registry';
import { sendSystemMessage } from './system-message';

export interface WebsocketPluginOptions {
  /** Default: Redis pub/sub when REDIS_URL is set, else in memory. */
  fanOut?: FanOut;
  timing?: Partial<TransportTiming>;
  registry?: Omit<RegistryOptions, 'onChange'>;
}

/** Handler of one kind of client application message on ${ws_url_base}/base/. */
export interface BaseMessageHandler {
  schema: ZodType<AppMessage>;
  handle(connection: ServerConnection, message: AppFrame): void;
}

/** Features (and tests) that take client messages on the app-wide socket register them here. */
export interface BaseEndpoint {
  on(type: string, handler: BaseMessageHandler): void;
}

const endpoints = new WeakMap<
  LiveHub,
  { schemas: Record<string, ZodType<AppMessage>>; handlers: Map<string, BaseMessageHandler> }
>();

export function baseEndpoint(hub: LiveHub): BaseEndpoint {
  const endpoint = endpoints.get(hub);
  if (!endpoint) throw new Error('not a hub of websocketPlugin');
  return {
    on(type, handler) {
      endpoint.schemas[type] = handler.schema;
      endpoint.handlers.set(type, handler);
    },
  };
}

/** The path part of ws_url_base, which may be an absolute ws(s):// address of another host. */
function basePath(wsUrlBase: string): string {
  const pathname = /^[a-z]+:\/\//i.test(wsUrlBase) ? new URL(wsUrlBase).pathname : wsUrlBase;
  return `/${pathname.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
}

/**
 * Cross-site websocket hijacking: a browser sends the session cookie with a socket any page opens,
 * so the Origin must be this site's. Clients without an Origin are not browsers (and so cannot be
 * made to lend someone else's cookie).
 */
function originAllowed(
  origin: string | undefined,
  request: FastifyRequest,
  config: Pick<Config, 'siteUrl'>,
): boolean {
  if (origin === undefined) return true;
  const allowed = new Set([
    new URL(config.siteUrl).origin.toLowerCase(),
    `${request.protocol}://${request.host}`.toLowerCase(),
  ]);
  return allowed.has(origin.toLowerCase());
}

async function admit(ctx: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  if (!originAllowed(request.headers.origin, request, ctx.config)) {
    request.log.warn({ origin: request.headers.origin }, 'websocket from a foreign origin refused');
    return null;
  }
  return request.user ?? (await userFromCookieHeader(ctx, request.headers.cookie));
}

function deny(socket: WebSocket): void {
  socket.send(JSON.stringify({ type: 'access_denied', c: 0, s: 0 }));
  socket.close(CLOSE_POLICY_VIOLATION, 'access denied');
}

/**
 * The live connection: ${ws_url_base}/base/ for every logged-in page, fan-out between processes,
 * and the staff routes POST /api/base/send_system_message/ and GET /api/base/connection_info/.
 */
export function websocketPlugin(ctx: AppContext, options: WebsocketPluginOptions = {}): FastifyPluginAsync {
  return async (app) => {
    const log = (message: string, error?: unknown) => app.log.warn({ err: error }, message);
    const fanOut = options.fanOut ?? (await createFanOut(ctx.config, { log }));
    const registry = new ConnectionRegistry({ ...options.registry, onChange: () => fanOut.censusChanged() });
    fanOut.setLocalCensus(() => registry.census());
    const hub: LiveHub = { registry, fanOut };
    const endpoint = {
      schemas: {} as Record<string, ZodType<AppMessage>>,
      handlers: new Map<string, BaseMessageHandler>(),
    };
    endpoints.set(hub, endpoint);
    setLiveHub(ctx, hub);

    fanOut.onEvent((event) => {
      if (event.kind === 'system_message')
        registry.broadcast({ type: 'system_message', message: event.message });
      else if (event.kind === 'sessions_ended') {
        for (const connection of registry.connectionsOfSessions(event.sessionHashes)) {
          connection.deny();
        }
      }
    });

    await app.register(fastifyWebsocket, {
      // Bigger frames are refused by ws itself: close code 1009 before the frame is buffered whole.
      options: { maxPayload: MAX_FRAME_BYTES },
      errorHandler: (error, socket, request) => {
        request.log.info({ err: error }, 'websocket error');
        // ws has started a close handshake with the fitting code; do not cut it short at once.
        setTimeout(() => socket.terminate(), 1000).unref();
      },
    });

    const admitted = new WeakMap<FastifyRequest, UserRow | null>();
    app.get(
      `${basePath(ctx.config.wsUrlBase)}/base/`,
      {
        websocket: true,
        preValidation: async (request) => {
          admitted.set(request, await admit(ctx, request));
        },
      },
      (socket, request) => {
        const user = admitted.get(request);
        if (!user) {
          deny(socket);
          return;
        }
        // Only the logger is kept: the request (headers, raw message) is not needed after the upgrade.
        const logger = request.log;
        new ServerConnection(socket, {
          userId: user.id,
          sessionHash: request.sessionHash ?? null,
          registry,
          clientMessages: endpoint.schemas,
          onMessage: (connection, message) =>
            endpoint.handlers.get(message.type)?.handle(connection, message),
          timing: options.timing,
          log: (message, details) => logger.info(details ?? {}, message),
        }).start();
      },
    );

    route(app, staffApi.sendSystemMessage, async (request) => {
      const user = requireUser(request);
      if (!user.is_staff) throw new HttpError(403);
      const { message } = parseInput(request, staffApi.sendSystemMessage);
      await sendSystemMessage(ctx, message);
      return {};
    });

    route(app, staffApi.connectionInfo, async (request) => {
      const user = requireUser(request);
      if (!user.is_staff) throw new HttpError(403);
      const census = await fanOut.census();
      const users = new Set(census.flatMap((entry) => entry.userIds));
      return connectionInfo.parse({
        users: users.size,
        sockets: census.reduce((sum, entry) => sum + entry.sockets, 0),
        processes: census.length,
      });
    });

    let control: net.Server | null = null;
    app.addHook('onReady', async () => {
      control = await listenControlSocket(ctx.config, (event) => fanOut.publish(event), log);
    });
    app.addHook('onClose', async () => {
      await closeControlSocket(control);
      setLiveHub(ctx, null);
      registry.close();
      await fanOut.close();
    });
  };
}
