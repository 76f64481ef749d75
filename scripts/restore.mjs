#!/usr/bin/env node
// `npm run restore -- --from DIR [--to DATA_DIR] [--snapshot NAME] [--force]`: verifies a
// backup and restores it (see src/server/backup/restore.ts). With --to, the database goes to
// DATA_DIR/studio.db and the media to DATA_DIR/media; without it, to DATABASE_URL (its file,
// or an empty libSQL server) and MEDIA_DIR. Stop the app first when restoring over its own data.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const usage = 'Usage: npm run restore -- --from DIR [--to DATA_DIR] [--snapshot NAME] [--force]';
let values;
try {
  ({ values } = parseArgs({
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      snapshot: { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean' },
    },
  }));
} catch (e) {
  console.error(`${e.message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!values.from) {
  console.error(`--from is required.\n${usage}`);
  process.exit(2);
}

const { restoreBackup, RestoreError } = await import('../src/server/backup/restore.ts');
const { DatabaseCopyError } = await import('../src/server/backup/database-copy.ts');
const { DATABASE_FILE, databaseFile } = await import('../src/server/backup/files.ts');
let database;
let mediaDir;
if (values.to) {
  database = { file: path.join(path.resolve(values.to), DATABASE_FILE) };
  mediaDir = path.join(path.resolve(values.to), 'media');
} else {
  const { config } = await import('../src/server/config.ts');
  const file = databaseFile(config.DATABASE_URL);
  database = file ? { file } : { url: config.DATABASE_URL, authToken: config.DATABASE_AUTH_TOKEN };
  mediaDir = config.mediaDir;
}

try {
  const r = await restoreBackup({ from: values.from, snapshot: values.snapshot, database, mediaDir, force: values.force, by: `npm run restore (${os.userInfo().username})` });
  const where = database.file ?? database.url;
  console.log(`Restored snapshot ${r.snapshot}: database ${where}, ${r.files} media files (${r.bytes} bytes) into ${mediaDir}`);
  for (const t of r.tables ?? []) console.log(`  ${t.table}: ${t.rows} rows`);
  for (const w of r.warnings) console.log(`  warning: ${w}`);
  console.log(`Start the app with DATABASE_URL=${database.file ? `file:${database.file}` : database.url} MEDIA_DIR=${mediaDir}`);
} catch (e) {
  if (e instanceof RestoreError || e instanceof DatabaseCopyError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}
