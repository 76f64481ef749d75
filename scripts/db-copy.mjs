#!/usr/bin/env node
// `npm run db:copy -- --from URL --to URL`: copies a whole database into an empty one and
// checks every table's row count on both sides (src/server/backup/database-copy.ts). The way
// from the embedded file to a libSQL server (docs/deploying.md): stop every process, copy,
// then start them with DATABASE_URL on the server. --to-token / --from-token (or
// DATABASE_AUTH_TOKEN for the server side) carry a server's auth token.
import { parseArgs } from 'node:util';

const usage = 'Usage: npm run db:copy -- --from file:data/studio.db --to http://127.0.0.1:8080 [--from-token T] [--to-token T]';
let values;
try {
  ({ values } = parseArgs({
    options: { from: { type: 'string' }, to: { type: 'string' }, 'from-token': { type: 'string' }, 'to-token': { type: 'string' }, help: { type: 'boolean' } },
  }));
} catch (e) {
  console.error(`${e.message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!values.from || !values.to) {
  console.error(`--from and --to are required.\n${usage}`);
  process.exit(2);
}

const { connect } = await import('../src/db/connect.ts');
const { copyDatabase, DatabaseCopyError } = await import('../src/server/backup/database-copy.ts');
const { databaseFile } = await import('../src/server/backup/files.ts');
const fs = await import('node:fs');
const sourceFile = databaseFile(values.from);
if (sourceFile && !fs.existsSync(sourceFile)) {
  // Opening a missing file would make an empty database and "copy" nothing.
  console.error(`No database at ${sourceFile}.`);
  process.exit(1);
}
const token = (url, given) => given ?? (databaseFile(url) ? undefined : process.env.DATABASE_AUTH_TOKEN);
const from = connect({ url: values.from, authToken: token(values.from, values['from-token']), intMode: 'bigint' });
const to = connect({ url: values.to, authToken: token(values.to, values['to-token']), intMode: 'bigint' });
const started = Date.now();
try {
  const tables = await copyDatabase(from, to);
  const rows = tables.reduce((n, t) => n + t.rows, 0);
  for (const t of tables) console.log(`  ${t.table}: ${t.rows} rows`);
  console.log(`Copied ${tables.length} tables, ${rows} rows, from ${values.from} to ${values.to} in ${((Date.now() - started) / 1000).toFixed(1)} s; every row count verified.`);
  console.log(`STUDIO_DB_COPY ${JSON.stringify({ tables: tables.length, rows })}`);
} catch (e) {
  console.error(e instanceof DatabaseCopyError ? e.message : `The copy failed, nothing was copied: ${e instanceof Error ? e.message : e}`);
  process.exitCode = 1;
} finally {
  from.close();
  to.close();
}
