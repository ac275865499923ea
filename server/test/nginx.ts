import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes';

// Debian's nginx (.ci/run installs it) running the shipped deploy/nginx.conf on loopback, in front
// of the tests' and benchmarks' server processes.

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The nginx binary, or undefined when none is installed. */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(
  (candidate) => spawnSync(candidate, ['-v']).status === 0,
);

/** Throws when REQUIRE_SERVICES=1 and there is no nginx: CI must not skip the `what` silently. */
export function requireNginx(what: string): void {
  if (!NGINX && process.env.REQUIRE_SERVICES === '1')
    throw new Error(`REQUIRE_SERVICES=1 but nginx is not installed: ${what} cannot run.`);
}

/** Resolves once something listens on the port. */
async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const probe = net.connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The shipped deploy/nginx.conf with this run's ports: its two upstream lines and the listen line. */
export function renderShippedConfig(upstreams: readonly [number, number], listen: number): string {
  const shipped = readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
  const site = shipped
    .replace('127.0.0.1:8001', `127.0.0.1:${upstreams[0]}`)
    .replace('127.0.0.1:8002', `127.0.0.1:${upstreams[1]}`)
    .replace(/listen 80;/, `listen 127.0.0.1:${listen};`);
  if (site === shipped || site.includes(':8001') || site.includes(':8002') || site.includes('listen 80;'))
    throw new Error('deploy/nginx.conf no longer has the lines the tests replace');
  return site;
}

export interface RunningNginx {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** The site file nginx runs (the shipped one with this run's ports). */
  site: string;
  output: string[];
  stop(): Promise<void>;
}

/**
 * Runs nginx (not as a daemon, one worker, its files in a temporary folder) on the shipped
 * configuration, its upstream being the two loopback ports given (a port nobody listens on is a
 * dead process). Resolves once it listens.
 */
export async function startNginx(upstreams: readonly [number, number]): Promise<RunningNginx> {
  if (!NGINX) throw new Error('nginx is not installed');
  const work = mkdtempSync(path.join(os.tmpdir(), 'scriptorium-nginx-'));
  const port = await freePort();
  const site = renderShippedConfig(upstreams, port);
  writeFileSync(path.join(work, 'scriptorium.conf'), site);
  const temp = (name: string) => `${name} ${path.join(work, name.replace(/_path$/, ''))};`;
  writeFileSync(
    path.join(work, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${path.join(work, 'nginx.pid')};`,
      `error_log ${path.join(work, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      ...[
        'client_body_temp_path',
        'proxy_temp_path',
        'fastcgi_temp_path',
        'uwsgi_temp_path',
        'scgi_temp_path',
      ].map((name) => `  ${temp(name)}`),
      `  include ${path.join(work, 'scriptorium.conf')};`,
      '}',
    ].join('\n'),
  );
  const output: string[] = [];
  const child = spawn(NGINX, ['-p', work, '-c', path.join(work, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        rmSync(work, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', done);
      // QUIT would wait for the websockets; TERM closes them at once.
      child.kill('SIGTERM');
    });
  try {
    await listening(port, child, () => output.join(''));
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, site, output, stop };
}
