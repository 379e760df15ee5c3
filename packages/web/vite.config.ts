import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The UI is built into the server's package (packages/server/dist/web), so the
 * published `baton` serves it at `/` with nothing else to start. `vite` (dev)
 * proxies the API and the live feed to a running `baton serve`.
 */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: '../server/dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      treeshake: {
        // @baton/core's modules only declare schemas and pure functions; the
        // UI uses a few of them and must not carry the token counter's
        // 2 MB of BPE tables (core/handoff) into the browser.
        moduleSideEffects: (id: string) => !(id.includes('/gpt-tokenizer/') || id.includes('/packages/core/dist/')),
      },
    },
  },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:7337', ws: true } },
  },
});
