import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { FIRST_SCREEN_PRELOADS } from '../common/src/shell/first-screen';
import { chunkGroups, FIRST_SCREEN_TEXTS } from './build/chunk-groups';
import { FONT_FACES_MODULE, fontFacesCss } from './src/styles/font-faces';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the build, compressed
 * once at the highest levels; the server sends the one the browser accepts (@fastify/static's
 * preCompressed), so no answer of the app's own files is compressed per request, or not at all.
 */
function precompress(): Plugin {
  const TEXT = /\.(js|mjs|css|html|json|svg|txt|xml|webmanifest)$/;
  let outDir = 'dist';
  return {
    name: 'scriptorium-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const file = path.join(dir, name);
          if (statSync(file).isDirectory()) walk(file);
          else if (TEXT.test(name) && statSync(file).size > 1024) {
            const bytes = readFileSync(file);
            writeFileSync(
              `${file}.br`,
              brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
            );
            writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
          }
        }
      };
      walk(outDir);
    },
  };
}

/**
 * Writes dist/sw.js (the offline service worker, src/offline/sw.js) with this build's scripts,
 * styles and fonts to precache and a version made of their names, so that each build is a new
 * service worker (issue 20).
 */
function serviceWorker(): Plugin {
  return {
    name: 'scriptorium-service-worker',
    apply: 'build',
    // writeBundle, not generateBundle: by then Vite has dropped the empty JS chunks of CSS-only
    // modules, which generateBundle still lists (the worker's install failed on their 404).
    writeBundle(options, bundle) {
      const files = Object.keys(bundle)
        .filter((name) => /\.(js|css|woff2)$/.test(name))
        .sort();
      const precache = ['/', '/favicon.svg', '/intl-warmup.js', ...files.map((name) => `/${name}`)];
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16);
      const source = readFileSync(new URL('./src/offline/sw.js', import.meta.url), 'utf8')
        .replace("'__SCRIPTORIUM_VERSION__'", JSON.stringify(version))
        .replace("['__SCRIPTORIUM_PRECACHE__']", JSON.stringify(precache));
      writeFileSync(path.join(options.dir ?? 'dist', 'sw.js'), source);
    },
  };
}

/**
 * Puts the style sheets that index.html links into the page as <style> elements: the first paint
 * (the boot shell, then the login page) waits for no request but the page's own. On a phone's
 * slow network each render-blocking sheet cost a round trip, about 300 ms of Lighthouse's
 * simulated first paint (issue 23). Each sheet keeps a disabled <link>, which the browser does
 * not fetch: Vite's loader of lazy screens adds a sheet they need unless a <link> to it is in the
 * page, and a second copy of these rules, later in the cascade, would override the lazy screens'
 * own (e2e/specs/styles.spec.ts checks that none is added).
 */
function inlineEntryStyles(): Plugin {
  return {
    name: 'scriptorium-inline-entry-styles',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.filename.endsWith('index.html') || !context.bundle) return html;
        const bundle = context.bundle;
        return html.replace(
          /<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g,
          (link, file: string) => {
            const sheet = bundle[file];
            if (sheet?.type !== 'asset') return link;
            return `<style data-sheet="/${file}">${String(sheet.source)}</style>\n    ${link.replace('>', ' disabled>')}`;
          },
        );
      },
    },
  };
}

/**
 * The first paint needs no script (the boot shell is in the page, its styles inline), so the entry,
 * its modulepreloads and the first screen's are fetched at low priority: they do not compete with
 * the font of the first screen's heading. Lighthouse's simulation also takes a high-priority script
 * that was loaded before the real first paint for one the paint waited for: when the loopback
 * server answered the scripts that fast, its first paint moved from 0.7 s to 1.9 s (issue 23).
 */
const LOW = 'fetchpriority="low"';

/** Every script and preload tag of the page, the commented-out first-screen ones included. */
function lowerScriptPriority(html: string): string {
  return html.replace(
    /<(script type="module"|link rel="modulepreload"|link rel="preload" as="style") crossorigin /g,
    `<$1 ${LOW} crossorigin `,
  );
}

/** The logged-in first screen's modules: the shell and the overview. */
const FIRST_SCREEN = ['root/shell/logged-in-shell.tsx', 'pages/documents/documents-page.tsx'];

/**
 * Writes into index.html's head, inside a comment, the preload links of what a returning user's
 * start at '/' loads after the entry: the shell's and the overview's chunks with their imports and
 * style sheets, and each language's texts for it. For a logged-in start the server takes the
 * comment out (common/src/shell/first-screen.ts), so the browser fetches them while it parses the
 * page instead of after the entry has run; a visitor's page keeps them commented out.
 * The entry's loader then had to add these links itself, about 20 of them in one task of 35 ms
 * on a phone's CPU, after the first paint (issue 23).
 */
function firstScreenPreloads(): Plugin {
  return {
    name: 'scriptorium-first-screen-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!context.filename.endsWith('index.html') || !bundle || !context.chunk) return html;
        const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
        const byName = new Map(chunks.map((file) => [file.fileName, file]));
        const chunk = (name: string) => byName.get(name);
        /** The files `roots` import statically, the roots included. */
        const reached = (roots: readonly string[]) => {
          const files = new Set<string>();
          const pending = [...roots];
          for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
            if (files.has(name)) continue;
            files.add(name);
            pending.push(...(chunk(name)?.imports ?? []));
          }
          return files;
        };
        const loaded = reached([context.chunk.fileName]);
        const firstScreen = chunks
          .filter((file) => FIRST_SCREEN.some((module) => file.facadeModuleId === source(module)))
          .map((file) => file.fileName);
        if (firstScreen.length !== FIRST_SCREEN.length) throw new Error('a first-screen module has no chunk');
        const scripts = [...reached(firstScreen)].filter((name) => !loaded.has(name));
        const styles = scripts.flatMap((name) => [...(chunk(name)?.viteMetadata?.importedCss ?? [])]);
        const texts = chunks
          .map((file) => ({ file, language: FIRST_SCREEN_TEXTS.exec(file.name)?.[1] }))
          .filter(({ language }) => language !== undefined);
        const links = [
          ...scripts.map((name) => `<link rel="modulepreload" crossorigin href="/${name}">`),
          ...styles.map((name) => `<link rel="preload" as="style" crossorigin href="/${name}">`),
          ...texts.map(
            ({ file, language }) =>
              `<link rel="modulepreload" crossorigin href="/${file.fileName}" data-language="${language}">`,
          ),
        ];
        return lowerScriptPriority(
          html.replace(
            '</head>',
            `  ${FIRST_SCREEN_PRELOADS.start}\n    ${links.join('\n    ')}\n    ${FIRST_SCREEN_PRELOADS.end}\n  </head>`,
          ),
        );
      },
    },
  };
}

/** Where `npm run serve` listens; the dev server forwards everything the SPA does not own to it. */
const BACKEND = 'http://127.0.0.1:8000';

/**
 * Answers `import 'virtual:font-faces.css'` with the generated @font-face rules. The module is given
 * an id beside the style sheets so that Vite resolves the rules' package url()s from there.
 */
function fontFaces(): Plugin {
  const id = fileURLToPath(new URL('./src/styles/font-faces.generated.css', import.meta.url));
  return {
    name: 'scriptorium-font-faces',
    resolveId: (source) => (source === FONT_FACES_MODULE ? id : undefined),
    load: (loaded) => (loaded === id ? fontFacesCss() : undefined),
  };
}

const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

export default defineConfig({
  plugins: [react(), fontFaces(), inlineEntryStyles(), firstScreenPreloads(), serviceWorker(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps are written for reading stack traces on the server, but not referenced from the
    // bundles; the server never serves them (src/http/spa.ts).
    sourcemap: 'hidden',
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
      },
      output: {
        codeSplitting: {
          // A group takes only the modules it names; their imports stay where they were.
          includeDependenciesRecursively: false,
          groups: chunkGroups({
            entries: [source('main.tsx')],
            firstScreen: FIRST_SCREEN.map(source),
          }),
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: BACKEND, changeOrigin: false },
      '/media': { target: BACKEND, changeOrigin: false },
      '/ws': { target: BACKEND, ws: true, changeOrigin: false },
    },
  },
});
