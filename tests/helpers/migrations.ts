// A database as an older release left it: a copy of the migrations folder holding only those
// before `tag`, for tests that upgrade a filled database with the real migrations.
import fs from 'node:fs';
import path from 'node:path';
import { scratchDir } from './scratch.ts';
import { ROOT } from './server.ts';

const MIGRATIONS = path.join(ROOT, 'src/db/migrations');

export function migrationsBefore(tag: string): string {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8'));
  const cut = journal.entries.findIndex((e: { tag: string }) => e.tag === tag);
  if (cut <= 0) throw new Error(`No migration ${tag} after the first`);
  journal.entries = journal.entries.slice(0, cut);
  const out = scratchDir('migrations-');
  fs.mkdirSync(path.join(out, 'meta'));
  fs.writeFileSync(path.join(out, 'meta/_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries) fs.copyFileSync(path.join(MIGRATIONS, `${e.tag}.sql`), path.join(out, `${e.tag}.sql`));
  return out;
}
