#!/usr/bin/env node
// `npm run worker`: a video worker on its own (for installs that run web processes with
// WORKER=off and workers separately on the same database). Migrates first, like start.
await (await import('../src/server/storage/startup.ts')).checkStorageOrExit();
const { bootstrapDatabase } = await import('../src/db/bootstrap.ts');
await bootstrapDatabase((line) => console.log(line)).catch((e) => {
  // A migration that failed names itself; the database was left as it was (src/db/migrate.ts).
  if (e?.name !== 'MigrationError') throw e;
  console.error(e.message);
  process.exit(1);
});
const { startWorker } = await import('../src/server/jobs/worker.ts');
const worker = startWorker();
console.log('STUDIO_WORKER_READY');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    // The running ffmpeg (if any) is a child: its job's lease lapses and another worker retakes it.
    void worker.stop();
    process.exit(0);
  });
}
