import { fileURLToPath } from 'node:url';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  // What the web app shares with the server (tsconfig.json's paths; the boundary rules in .dependency-cruiser.cjs).
  resolve: {
    alias: {
      '@loopcast/contract': fileURLToPath(new URL('../lambdas/contract', import.meta.url)),
      '@loopcast/core': fileURLToPath(new URL('../lambdas/core', import.meta.url)),
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: { target: 'es2022' },
});
