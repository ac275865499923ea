import { chmodSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../config';
import { type FanOutEvent, fanOutEvent } from './fan-out';

/**
 * A local channel from `npm run manage` to a running server, for deployments without Redis (the
 * CLI runs in its own process and cannot reach the server's in-memory fan-out). It is a Unix
 * socket in DATA_DIR, readable by the server's own user only.
 */
export function controlSocketPath(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'live-control.sock');
}

const MAX_REQUEST_BYTES = 64 * 1024;

export async function listenControlSocket(
  config: Pick<Config, 'dataDir'>,
  publish: (event: FanOutEvent) => Promise<number>,
  log: (message: string, error?: unknown) => void,
): Promise<net.Server | null> {
  const file = controlSocketPath(config);
  const server = net.createServer((connection) => {
    let buffered = '';
    connection.setEncoding('utf8');
    connection.on('error', () => undefined);
    connection.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_REQUEST_BYTES) connection.destroy();
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      const line = buffered.slice(0, newline);
      buffered = '';
      let event: FanOutEvent;
      try {
        event = fanOutEvent.parse(JSON.parse(line));
      } catch {
        connection.end(`${JSON.stringify({ error: 'invalid request' })}\n`);
        return;
      }
      publish(event).then(
        (processes) => connection.end(`${JSON.stringify({ processes })}\n`),
        (error: unknown) => {
          log('control socket publish failed', error);
          connection.end(`${JSON.stringify({ error: 'publish failed' })}\n`);
        },
      );
    });
  });
  // A socket file left by a crashed process would block listen().
  try {
    unlinkSync(file);
  } catch {
    // none there
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => {
        server.off('error', reject);
        resolve();
      });
    });
    chmodSync(file, 0o600);
    return server;
  } catch (error) {
    log('the control socket for `npm run manage -- system-message` is not available', error);
    return null;
  }
}

export async function closeControlSocket(server: net.Server | null): Promise<void> {
  if (!server) return;
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Sends one event through a running server's control socket; null when no server listens. */
export function sendThroughControlSocket(
  config: Pick<Config, 'dataDir'>,
  event: FanOutEvent,
): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const connection = net.createConnection(controlSocketPath(config));
    let answer = '';
    connection.setEncoding('utf8');
    connection.setTimeout(10_000, () => connection.destroy(new Error('the server did not answer in time')));
    connection.on('connect', () => connection.write(`${JSON.stringify(event)}\n`));
    connection.on('data', (chunk: string) => {
      answer += chunk;
    });
    connection.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
    connection.on('end', () => {
      try {
        const parsed = JSON.parse(answer) as { processes?: unknown; error?: unknown };
        if (typeof parsed.processes === 'number') resolve(parsed.processes);
        else reject(new Error(String(parsed.error ?? 'no answer')));
      } catch {
        reject(new Error('the server gave no valid answer'));
      }
    });
  });
}
