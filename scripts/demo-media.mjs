#!/usr/bin/env node
// Makes the demo media of a first start (DEMO_CONTENT) into the configured database, then
// ends: run by the seed of scripts/start.mjs (src/server/media/demo-apart.ts), so the web
// process never loads sharp for them (issue 51). Argument: the demo client's id, or ''.
import { loadRuntime } from './load-runtime.mjs';

const runtime = await loadRuntime();
const arg = process.argv[2];
await runtime.makeDemoMedia(arg ? Number(arg) : null);
// The libSQL client and sharp's threads must not keep a finished job alive.
process.exit(0);
