import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Built by scripts/build.mjs into dist/web, which apps/api serves at `/`.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    // `npx vite apps/web` during development: the API runs on :3000.
    proxy: { '/graphql': 'http://127.0.0.1:3000', '/v1': 'http://127.0.0.1:3000' },
  },
});
