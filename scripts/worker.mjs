#!/usr/bin/env node
// `npm run worker`: a video worker on its own (for installs that run web processes with
// WORKER=off and workers separately on the same database). Migrates first, like start.
// First: the process's memory settings (it may start itself again with them).
import './lean-process.mjs';
import { flushCompileCache } from './compile-cache.mjs';

import path from 'node:path';
import { loadRuntime, root } from './load-runtime.mjs';

// The worker runs the build's bundle of src/server/runtime.ts (plain JavaScript), like start.mjs.
const runtime = await loadRuntime();
await runtime.checkStorageOrExit();
await runtime.bootstrapDatabase((line) => console.log(line), { migrations: path.join(root, 'src/db/migrations') }).catch((e) => {
  // A migration that failed names itself; the database was left as it was (src/db/migrate.ts).
  if (e?.name !== 'MigrationError') throw e;
  console.error(e.message);
  process.exit(1);
});
const worker = await runtime.startWorker();
await worker.backfilled;
flushCompileCache();
console.log('STUDIO_WORKER_READY');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    // The running ffmpeg (if any) is a child: its job's lease lapses and another worker retakes it.
    void worker.stop();
    process.exit(0);
  });
}
