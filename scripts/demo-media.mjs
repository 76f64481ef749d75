#!/usr/bin/env node
// Makes the demo media of a first start (DEMO_CONTENT) into the configured database, then
// ends: run by the seed of scripts/start.mjs (src/server/media/demo-apart.ts), so the web
// process never loads sharp for them (issue 51). Argument: the demo client's id, or ''.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runtimeFile = path.resolve(root, process.env.STUDIO_OUT_DIR || 'dist', 'runtime', 'runtime.mjs');
if (!fs.existsSync(runtimeFile)) {
  console.error(`No build at ${runtimeFile}: run "npm run build" first.`);
  process.exit(1);
}
const runtime = await import(pathToFileURL(runtimeFile).href);
const arg = process.argv[2];
await runtime.makeDemoMedia(arg ? Number(arg) : null);
// The libSQL client and sharp's threads must not keep a finished job alive.
process.exit(0);
