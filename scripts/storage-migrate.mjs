#!/usr/bin/env node
// `npm run storage:migrate`: copies every media file of the local library (MEDIA_DIR) into the
// S3 bucket named by S3_* and verifies each (see src/server/storage/migrate.ts). Switches
// nothing; exit code 0 only when every file is in the bucket and verified.
const { config } = await import('../src/server/config.ts');
const missing = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((k) => !config[k]);
if (missing.length) {
  console.error(`Set ${missing.join(', ')} (and S3_ENDPOINT for a service other than AWS) to the bucket to copy into.`);
  process.exit(2);
}
await (await import('../src/server/storage/startup.ts')).checkStorageOrExit(console.log, true);
const { createClient } = await import('@libsql/client');
const { migrateLibrary } = await import('../src/server/storage/migrate.ts');
const sql = createClient({ url: config.DATABASE_URL, authToken: config.DATABASE_AUTH_TOKEN });
const report = await migrateLibrary(sql, (line) => console.log(line));
sql.close();
console.log(
  `${report.items} items, ${report.files} files: ${report.uploaded} copied and verified (${report.bytes} bytes), ${report.skipped} already in the bucket, ${report.failures.length} failed`,
);
for (const m of report.missing) console.log(`warning: no local folder for ${m} (nothing to copy)`);
if (report.failures.length) {
  for (const f of report.failures) console.error(`failed: ${f}`);
  console.error('Not every file is in the bucket: keep MEDIA_STORAGE=local and run this again.');
  process.exit(1);
}
console.log(`Every file is in bucket "${config.S3_BUCKET}" and verified. Set MEDIA_STORAGE=s3 and restart the app to use it.`);
