import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run serve` listens; the dev server forwards everything the SPA does not own to it. */
const BACKEND = 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react()],
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
