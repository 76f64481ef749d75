#!/usr/bin/env node
// `npm start`: build when the sources are newer than the build, migrate and seed the
// database, then serve. Flags: --no-build (serve what is built), --bootstrap-only.
// First: the process's memory settings (it may start itself again with them).
import './lean-process.mjs';
import { flushCompileCache } from './compile-cache.mjs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadRuntime, root } from './load-runtime.mjs';

const outDir = path.resolve(root, process.env.STUDIO_OUT_DIR || 'dist');
const args = new Set(process.argv.slice(2));

function newestMtime(p) {
  let newest = 0;
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function needsBuild() {
  const stamp = path.join(outDir, '.build-stamp');
  if (!fs.existsSync(path.join(outDir, 'server', 'entry.mjs')) || !fs.existsSync(stamp)) return true;
  const built = fs.statSync(stamp).mtimeMs;
  const inputs = ['src', 'public', 'astro.config.mjs', 'package-lock.json'].map((p) => newestMtime(path.join(root, p)));
  return Math.max(...inputs) > built;
}

/** Runs a build step on Node's own memory settings (a build wants speed, not a small footprint). */
function buildStep(...args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, LEAN_MEMORY: 'off' } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (args.has('--bootstrap-only')) {
  // Migrating needs only the runtime (a second or so), not the Astro app (`npm run dev` serves that).
  buildStep(path.join(root, 'scripts/build-runtime.mjs'));
} else if (!args.has('--no-build') && needsBuild()) {
  console.log('Building the app (first start or sources changed)...');
  // The Astro app, then the runtime this script runs (scripts/build-runtime.mjs).
  buildStep(path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build');
  buildStep(path.join(root, 'scripts/build-runtime.mjs'));
  fs.writeFileSync(path.join(outDir, '.build-stamp'), '');
}

// Everything below the Astro app comes from the build, as plain JavaScript (src/server/runtime.ts).
const runtime = await loadRuntime(outDir);
const { config } = runtime;
// With MEDIA_STORAGE=s3, refuse to start against a missing or read-only bucket.
await runtime.checkStorageOrExit();
const seeded = await runtime
  .bootstrapDatabase((line) => console.log(line), {
    shareLinkKey: true,
    migrations: path.join(root, 'src/db/migrations'),
    // Made by a process of their own: the image work would stay in this one's memory (issue 51).
    demoMedia: runtime.demoMediaApart(path.join(root, 'scripts/demo-media.mjs')),
  })
  .catch((e) => {
    // A share-link key that cannot be read (src/server/sharing/link-key.ts), or a migration that
    // failed (src/db/migrate.ts, the database left as it was): the message says which and why.
    if (e?.name === 'ShareLinkKeyError' || e?.name === 'MigrationError') {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  });
if (args.has('--bootstrap-only')) process.exit(0);

const { serve } = await import('./serve.mjs');
const server = await serve({ outDir, port: config.PORT, host: config.HOST });
const address = server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;
const { startupAddress } = runtime;
const shown = startupAddress(config.SITE_URL, config.HOST, port);
const bound = startupAddress(undefined, config.HOST, port);
console.log(`Studio is running at ${shown}${shown === bound ? '' : ` (listening on ${bound})`}`);
if (seeded.generatedAdminPassword) {
  console.log('');
  console.log('  First start: an admin account was created.');
  console.log(`  Sign in at ${shown}/auth`);
  console.log(`  Username: ${config.ADMIN_USERNAME}`);
  console.log(`  Password: ${seeded.generatedAdminPassword}`);
  console.log('  (shown once; set ADMIN_PASSWORD to choose it yourself)');
  console.log('');
}
if (config.backupDir) {
  // Scheduled backups run in this process, on their own connection to the database.
  const { db, client } = await runtime.openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  await runtime.startBackupSchedule({
    db,
    client,
    databaseUrl: config.DATABASE_URL,
    authToken: config.DATABASE_AUTH_TOKEN,
    mediaDir: config.mediaDir,
    dir: config.backupDir,
    intervalHours: config.BACKUP_INTERVAL_HOURS,
    keep: config.BACKUP_KEEP,
  });
  console.log(`Backups every ${config.BACKUP_INTERVAL_HOURS} h into ${config.backupDir}, keeping ${config.BACKUP_KEEP}`);
}
// The video worker (WORKER_JOBS conversions at a time) runs in this process unless WORKER=off.
if (config.WORKER) {
  await (await runtime.startWorker()).backfilled;
} else {
  console.log('Video worker off (WORKER=off): run `npm run worker` for uploaded videos to be converted.');
}
// The notification outbox's sender (issue 17) runs in every process: rows are claimed with a
// lease, so several processes share the outbox without sending a message twice.
{
  await runtime.startNotifier();
  if (!config.SMTP_URL) console.log(`Notifications: no SMTP_URL, emails are written to ${config.notifyDir} (npm run notify:resend sends them once it is set)`);
}
// Live review sessions (issue 41): every process ends sessions whose presenter has gone and
// prunes old event rows; both are idempotent across processes.
await runtime.startLiveSweeper();
// The audit log's retention (issue 56): idempotent across processes, like the sweeper.
await runtime.startAuditRetention();
flushCompileCache();
// Machine-readable line for tests and process managers.
console.log(`STUDIO_LISTENING ${port}`);
