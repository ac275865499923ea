import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How often, while closing, connections that have just become idle are looked for. */
const IDLE_SWEEP_MS = 50;

interface Connections {
  /** The server's HTTP connections (not those a websocket took over). */
  open: Set<Socket>;
  /** Each connection's latest request's answer (looked at when stopping, so no listener on it). */
  answers: WeakMap<Socket, ServerResponse>;
}

const tracked = new WeakMap<Server, Connections>();

/**
 * Keeps, from the start, which connections are answering a request, so that a stop can tell them
 * from those with nothing to answer: idle keep-alive ones, and ones whose request never arrived
 * whole (a tab that went offline in the middle of sending it).
 */
export function trackConnections(app: FastifyInstance): void {
  const connections: Connections = { open: new Set(), answers: new WeakMap() };
  tracked.set(app.server, connections);
  app.server.on('connection', (socket: Socket) => {
    connections.open.add(socket);
    socket.once('close', () => connections.open.delete(socket));
  });
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    connections.answers.set(request.socket, response);
  });
  // The websocket server closes these itself (going away, then cut after a grace).
  app.server.on('upgrade', (request: IncomingMessage) => {
    connections.open.delete(request.socket);
  });
}

/** Whether a connection is answering a request (its answer is neither out nor abandoned). */
function answering(connections: Connections, socket: Socket): boolean {
  const answer = connections.answers.get(socket);
  return answer !== undefined && !answer.writableFinished && !answer.destroyed;
}

/** Cuts the connections with nothing to answer; Node's own sweep only knows the idle ones. */
function closeUnanswered(server: Server): void {
  const connections = tracked.get(server);
  if (!connections) {
    server.closeIdleConnections();
    return;
  }
  for (const socket of connections.open) if (!answering(connections, socket)) socket.destroy();
}

/**
 * Stops taking requests, lets those in flight finish, then runs the app's close hooks.
 *
 * Fastify closes the keep-alive connections that are idle when close() starts. One that is
 * answering a request at that moment becomes idle a little later and then stays open for the
 * whole keep-alive time (72 s) with the process waiting on it: a stop under load took over a
 * minute. A connection whose request is still arriving is not idle to Node either, and kept the
 * stop waiting for the headers timeout (60 s; the fault test's tab went offline mid-request).
 * Each connection is closed as soon as it has nothing to answer.
 */
export async function closeGracefully(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => closeUnanswered(app.server), IDLE_SWEEP_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}
