import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { type ServerProcess, startServerProcess as startFromSources } from '../../server/test/processes';

/**
 * Benchmarks run the server as `npm start` does: compiled once per bench run (scripts/build-server.mjs,
 * into a folder of its own under server/dist, removed at exit) and started with plain node, so
 * that tsx's compile at every start counts neither in the figures nor in a restart's time (the
 * kill -9 legs). BENCH_SERVER=tsx runs the TypeScript sources instead.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
let built: string | null = null;

/** The compiled server's main.js, built on first use; null with BENCH_SERVER=tsx. */
export function compiledMain(): string | null {
  if (process.env.BENCH_SERVER === 'tsx') return null;
  if (built) return built;
  const outdir = path.join(ROOT, 'server/dist', `bench-${process.pid}`);
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), outdir], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`server build failed: ${result.stderr}`);
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  built = path.join(outdir, 'main.js');
  return built;
}

/** startServerProcess of server/test/processes.ts, on the compiled server. */
export function startServerProcess(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  return startFromSources(env, port, compiledMain() ?? undefined);
}
