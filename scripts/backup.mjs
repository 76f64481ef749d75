#!/usr/bin/env node
// `npm run backup -- --to DIR [--keep N]`: a consistent backup of the database and every media
// file while the app keeps serving (see src/server/backup/snapshot.ts). Reads DATABASE_URL
// and MEDIA_DIR like the app; --to defaults to BACKUP_DIR. Exit code 0 on success, 1 otherwise.
import os from 'node:os';
import { parseArgs } from 'node:util';

const usage = 'Usage: npm run backup -- --to DIR [--keep N]';
let values;
try {
  ({ values } = parseArgs({ options: { to: { type: 'string' }, keep: { type: 'string' }, help: { type: 'boolean' } } }));
} catch (e) {
  console.error(`${e.message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const { config } = await import('../src/server/config.ts');
const to = values.to ?? config.backupDir;
if (!to) {
  console.error(`No backup folder: pass --to DIR or set BACKUP_DIR.\n${usage}`);
  process.exit(2);
}
const keep = values.keep === undefined ? undefined : Number(values.keep);
if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1)) {
  console.error('--keep must be a whole number of at least 1');
  process.exit(2);
}
const { openDatabase } = await import('../src/db/client.ts');
const { runBackup } = await import('../src/server/backup/run.ts');
const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
const started = Date.now();
const outcome = await runBackup({ db, client, databaseUrl: config.DATABASE_URL, authToken: config.DATABASE_AUTH_TOKEN, mediaDir: config.mediaDir, to, keep, trigger: 'command', by: `npm run backup (${os.userInfo().username})` });
client.close();
if (!outcome.ok) {
  console.error(`Backup failed: ${outcome.error}`);
  process.exit(1);
}
const r = outcome.result;
console.log(`Backup ${r.name} written to ${r.dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`  ${r.files} media files (${r.bytes} bytes): ${r.newFiles} new (${r.linked} hard-linked, ${r.copied} copied), the rest already in the backup`);
for (const name of r.removedSnapshots) console.log(`  removed old snapshot ${name}`);
for (const w of r.warnings) console.log(`  warning: ${w}`);
// Machine-readable line for tests and scripts.
console.log(`STUDIO_BACKUP ${JSON.stringify({ name: r.name, dir: r.dir, files: r.files, newFiles: r.newFiles, linked: r.linked, copied: r.copied })}`);
