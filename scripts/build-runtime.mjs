#!/usr/bin/env node
// Part of `npm run build`: bundles src/server/runtime.ts (what start.mjs and worker.mjs run
// besides the Astro app) into <build>/runtime/runtime.mjs, so those processes start on plain
// JavaScript (issue 43: no TypeScript stripping at run time, drizzle-orm in one bundle). Other
// packages stay external: native ones (libSQL, argon2, sharp) cannot be bundled, and the rest
// are loaded only where used (S3, mail).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.resolve(root, process.env.STUDIO_OUT_DIR || 'dist', 'runtime');

await build({
  root,
  configFile: false,
  logLevel: 'warn',
  publicDir: false,
  build: {
    ssr: true,
    outDir,
    emptyOutDir: true,
    target: 'node24',
    minify: false,
    copyPublicDir: false,
    rolldownOptions: {
      input: { runtime: path.join(root, 'src/server/runtime.ts') },
      output: { format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
    },
  },
  ssr: { noExternal: ['drizzle-orm'] },
});
