// Loaded into a server process by bench/server-memory.ts (NODE_OPTIONS=--import): on SIGWINCH it
// collects garbage (full GC, twice) and writes to MEMORY_PROBE_OUT the resident memory, the heap
// and the CommonJS modules loaded, and with MEMORY_PROBE_SNAPSHOT=1 a heap snapshot beside it.
// A benchmark's tool only: the server itself has no such hook.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const out = process.env.MEMORY_PROBE_OUT;
const require = createRequire(import.meta.url);

process.on('SIGWINCH', () => {
  if (!out) return;
  if (process.env.MEMORY_PROBE_GC === 'last-resort')
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  else {
    gc();
    gc();
  }
  const memory = process.memoryUsage();
  const modules = Object.keys(require.cache);
  if (process.env.MEMORY_PROBE_SNAPSHOT === '1') v8.writeHeapSnapshot(`${out}.heapsnapshot`);
  writeFileSync(out, JSON.stringify({ memory, modules, spaces: v8.getHeapSpaceStatistics() }));
});
