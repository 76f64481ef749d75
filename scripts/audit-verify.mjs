#!/usr/bin/env node
// `npm run audit:verify`: checks the audit log's hash chain (src/server/audit/verify.ts) in the
// database DATABASE_URL names, while the app runs. Exit code 0 when whole; 1 naming the first
// row that breaks it (edited, deleted, or written around the chain). Runs the build's runtime
// bundle (plain JavaScript, about a second faster than stripping the TypeScript); without a
// build, the sources.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.resolve(root, process.env.STUDIO_OUT_DIR || 'dist', 'runtime', 'runtime.mjs');
const runtime = fs.existsSync(bundle)
  ? await import(pathToFileURL(bundle).href)
  : {
      config: (await import('../src/server/config.ts')).config,
      openDatabase: (await import('../src/db/client.ts')).openDatabase,
      verifyAuditChain: (await import('../src/server/audit/verify.ts')).verifyChain,
    };
const { config, openDatabase, verifyAuditChain } = runtime;
const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
const r = await verifyAuditChain(db);
client.close();
if (!r.ok) {
  console.error(`Audit log broken at row ${r.broken.id}: ${r.broken.reason}`);
  console.log(`STUDIO_AUDIT_VERIFY ${JSON.stringify({ ok: false, brokenAt: r.broken.id, rows: r.rows })}`);
  process.exit(1);
}
const span = r.rows ? `rows ${r.firstId} to ${r.headId}` : 'no rows';
console.log(`Audit log whole: ${r.rows} rows checked (${span}); head hash ${r.headHash}`);
console.log(`STUDIO_AUDIT_VERIFY ${JSON.stringify({ ok: true, rows: r.rows, headId: r.headId, headHash: r.headHash })}`);
// On a libSQL server the closed client's socket could still hold the process open.
process.exit(0);
