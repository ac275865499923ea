import type { FastifyInstance } from 'fastify';

/**
 * An upgrade request answered with a plain HTTP status (503 while starting, 404 for an unknown
 * endpoint) keeps its raw socket: Node hands upgrade sockets over entirely, and @fastify/websocket
 * only destroys those that reached its own hooks. Left open, such a socket keeps the server from
 * closing, so every upgrade that was not taken over by a websocket ends with its answer.
 */
export function registerUpgradeCleanup(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode !== 101 && request.headers.upgrade?.toLowerCase() === 'websocket') {
      request.raw.socket?.destroy();
    }
    done();
  });
}
