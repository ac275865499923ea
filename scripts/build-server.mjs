#!/usr/bin/env node
// `npm start` runs the server as compiled JavaScript with plain node: tsx compiles every module
// at load and keeps its compiler and source maps resident (an idle server was about 270 MiB).
// Development and tests keep running the TypeScript sources through tsx.
//
// One esbuild pass bundles server/src/main.ts and every worker-thread body (`*-worker.ts`, which
// the pools load by file name next to their own module) into server/dist/, with our own
// workspace code (@scriptorium/common) inside and every npm package left to node_modules.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const sourceDir = path.join(root, 'server/src');
// An argument names another folder (the test of the compiled server builds into a temporary one).
const outdir = path.resolve(process.argv[2] ?? path.join(root, 'server/dist'));

/** Worker bodies live beside the pool that starts them; the bundle keeps them beside main.js. */
function workerEntries(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...workerEntries(file));
    else if (/-worker\.ts$/.test(entry.name)) found.push(file);
  }
  return found;
}

/**
 * Modules that find files next to their source (`import.meta.dirname`: the locale folders, the
 * CSL files, the repository root) keep finding them: in the bundle that name is the folder of
 * server/dist, so it is rewritten to that folder plus the way back to the module's own source
 * folder. The worker pools (`*-pool.ts`) are the exception: the worker files they start are the
 * bundle's own entries, beside them.
 */
const sourceFolders = {
  name: 'source-folders',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      let contents = await readFile(args.path, 'utf8');
      if (contents.includes('import.meta.dirname') && !args.path.endsWith('-pool.ts')) {
        const back = path.relative(outdir, path.dirname(args.path)).split(path.sep).join('/');
        contents = contents.replaceAll(
          'import.meta.dirname',
          `(import.meta.dirname + ${JSON.stringify(`/${back}`)})`,
        );
      }
      return { contents, loader: 'ts' };
    });
  },
};

/** npm packages stay external; our workspaces (TypeScript sources) are bundled. */
const packagesExternal = {
  name: 'packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@scriptorium/') ? undefined : { path: args.path, external: true },
    );
  },
};

// Only a folder that holds an earlier build (or nothing) is emptied first.
if (existsSync(outdir) && readdirSync(outdir).length > 0 && !existsSync(path.join(outdir, 'main.js'))) {
  console.error(`${outdir} is not empty and holds no earlier build: refusing to empty it.`);
  process.exit(1);
}
rmSync(outdir, { recursive: true, force: true });
const started = Date.now();
await build({
  entryPoints: [path.join(sourceDir, 'main.ts'), ...workerEntries(sourceDir)],
  outdir,
  // Flat: entries (main and the workers) and shared chunks all land directly in server/dist, so
  // that `import.meta.dirname` is the same folder in every output file.
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [sourceFolders, packagesExternal],
});
console.log(`server built into ${path.relative(root, outdir) || outdir} in ${Date.now() - started} ms`);
