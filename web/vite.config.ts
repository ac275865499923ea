import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { FONT_FACES_MODULE, fontFacesCss } from './src/styles/font-faces';

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

export default defineConfig({
  plugins: [react(), fontFaces()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps are written for reading stack traces on the server, but not referenced from the
    // bundles; the server never serves them (src/http/spa.ts).
    sourcemap: 'hidden',
  },
  server: {
    proxy: {
      '/api': { target: BACKEND, changeOrigin: false },
      '/media': { target: BACKEND, changeOrigin: false },
      '/ws': { target: BACKEND, ws: true, changeOrigin: false },
    },
  },
});
