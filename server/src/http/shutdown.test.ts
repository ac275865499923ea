import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { closeGracefully, trackConnections } from './shutdown';

describe('closeGracefully', () => {
  it('finishes a request in flight and then closes its keep-alive connection', async () => {
    const app = Fastify();
    const request = { answer: () => {} };
    const started = new Promise<void>((resolve) => {
      app.get('/slow', async () => {
        resolve();
        await new Promise<void>((done) => {
          request.answer = done;
        });
        return { ok: true };
      });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    // A browser's connection: kept alive after its answer, for as long as the server allows.
    const agent = new http.Agent({ keepAlive: true });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/slow', agent }, (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
    await started;

    let closed = false;
    const closing = closeGracefully(app).then(() => {
      closed = true;
    });
    // The request in flight is not cut: the stop waits for it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed).toBe(false);
    request.answer();
    expect(await response).toEqual({ status: 200, body: '{"ok":true}' });
    // Fastify's keep-alive time is 72 s, the test's limit 20 s: only closing the now idle
    // connection lets this resolve.
    await closing;
    expect(closed).toBe(true);
    agent.destroy();
  });

  it('cuts a connection whose request never arrived whole (its tab went offline meanwhile)', async () => {
    const app = Fastify();
    trackConnections(app);
    app.get('/', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    // Headers without their end: Node waits for the rest up to its headers timeout (60 s).
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The test's limit is 20 s: only cutting that connection lets the stop end.
    await closeGracefully(app);
    await ended;
  });
});
