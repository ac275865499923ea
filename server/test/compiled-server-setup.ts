import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';

/**
 * Vitest's global setup of the node project: bundles the server once per run
 * (scripts/build-server.mjs, about a second) for the tests that start server processes
 * (processes.ts). Started from the TypeScript sources, each process compiled the whole server with
 * tsx again, and again in every worker thread at its first task: 5-20 s of CPU per process on a
 * busy 2-core machine. Inside server/dist, as `npm start`'s bundle is, so it finds node_modules.
 */
export default function setup(): () => void {
  const root = path.resolve(import.meta.dirname, '../..');
  const outdir = path.join(root, 'server/dist', `test-run-${randomBytes(4).toString('hex')}`);
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs'), outdir], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the server bundle for the tests failed:\n${built.stderr}`);
  process.env.SCRIPTORIUM_TEST_SERVER = path.join(outdir, 'main.js');
  return () => rmSync(outdir, { recursive: true, force: true });
}
