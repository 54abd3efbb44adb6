import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console's web UI: built into web/dist, which the console app serves at `/`. Everything it
// needs is bundled; nothing is fetched from a CDN.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  logLevel: 'warn',
});
