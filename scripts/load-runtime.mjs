// The build's bundle of src/server/runtime.ts (plain JavaScript: scripts/build-runtime.mjs),
// which the start, worker and demo-media scripts run besides the Astro app. Without a build the
// process says so and ends.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function loadRuntime(outDir = path.resolve(root, process.env.STUDIO_OUT_DIR || 'dist')) {
  const runtimeFile = path.join(outDir, 'runtime', 'runtime.mjs');
  if (!fs.existsSync(runtimeFile)) {
    console.error(`No build in ${outDir}: run "npm run build" first.`);
    process.exit(1);
  }
  return import(pathToFileURL(runtimeFile).href);
}
