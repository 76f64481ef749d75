// What scripts/start.mjs and scripts/worker.mjs run besides the Astro app: the start-up checks,
// migrations and seed, the video worker, the notification sender, the backup schedule and the
// live-review sweeper.
// `npm run build` bundles this file into <build>/runtime/runtime.mjs (scripts/build-runtime.mjs),
// so the processes run plain JavaScript: no TypeScript stripped at start (about 18 MB and a
// second of CPU) and drizzle-orm inside the bundle rather than resolved file by file (Node
// parses its 175 kB package.json again for each of its 114 files; issue 43). The parts a
// process may not use are loaded when started.
import type { ScheduleOptions } from './backup/schedule.ts';

export { config } from './config.ts';
export { checkStorageOrExit } from './storage/startup.ts';
export { bootstrapDatabase } from '../db/bootstrap.ts';
export { openDatabase } from '../db/client.ts';
export { startupAddress } from './startup-address.ts';
export { demoMediaApart, makeDemoMedia } from './media/demo-apart.ts';

export async function startWorker(...args: Parameters<typeof import('./jobs/worker.ts').startWorker>) {
  return (await import('./jobs/worker.ts')).startWorker(...args);
}

export async function startNotifier(...args: Parameters<typeof import('./notifications/sender.ts').startNotifier>) {
  return (await import('./notifications/sender.ts')).startNotifier(...args);
}

export async function startBackupSchedule(opts: ScheduleOptions) {
  return (await import('./backup/schedule.ts')).startBackupSchedule(opts);
}

/** `npm run audit:verify`: checks the audit log's chain on its own connection (issue 56). */
export async function verifyAuditChain(...args: Parameters<typeof import('./audit/verify.ts').verifyChain>) {
  return (await import('./audit/verify.ts')).verifyChain(...args);
}

/** Prunes the audit log to its retention (issue 56), now and every AUDIT_PRUNE_INTERVAL_MS. */
export async function startAuditRetention() {
  const [{ db }, { config: c }, { startAuditRetention: start }] = await Promise.all([import('../db/index.ts'), import('./config.ts'), import('./audit/retention.ts')]);
  return start(db, c.AUDIT_RETENTION_DAYS, c.AUDIT_PRUNE_INTERVAL_MS);
}

export async function startLiveSweeper(...args: Parameters<typeof import('./live/sweeper.ts').startLiveSweeper>) {
  return (await import('./live/sweeper.ts')).startLiveSweeper(...args);
}
