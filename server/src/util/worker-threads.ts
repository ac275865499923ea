import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * The server runs from TypeScript sources (tsx); a worker thread starts without the parent's
 * loader when the parent is itself hosted by a test runner, so the worker loads tsx explicitly.
 * Compiled (server/dist), the workers are JavaScript and need nothing.
 */
export function workerExecArgv(): string[] {
  if (!import.meta.url.endsWith('.ts')) return [];
  const loader = createRequire(import.meta.url).resolve('tsx');
  return ['--import', pathToFileURL(loader).href];
}
