// The reference for bench/memory.mjs: the smallest Astro + React server of the same versions
// (one page, one island, the Node adapter standalone). Built into BARE_OUT_DIR by the bench.
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';

export default defineConfig({
  output: 'server',
  outDir: process.env.BARE_OUT_DIR || '../../dist-bare',
  cacheDir: process.env.BARE_CACHE_DIR || '../../node_modules/.astro-bare',
  adapter: node({ mode: 'standalone' }),
  integrations: [react()],
  vite: { cacheDir: '../../node_modules/.vite-bare' },
  devToolbar: { enabled: false },
});
