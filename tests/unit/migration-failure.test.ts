// A failed migration leaves the database as it was (issue 43): the oldest upgrade fixture is
// upgraded with today's migrations plus one that breaks halfway (its first statement works, its
// second does not). Nothing of the upgrade may remain, not even the real migrations before the
// broken one, and the error names the migration that failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { applyMigrations, MIGRATIONS_DIR, MigrationError } from '../../src/db/migrate.ts';
import { dbFingerprint } from '../helpers/fuzz.ts';
import { fixtureTags, unpackFixture } from '../helpers/upgrade.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-migration-failure-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Today's migrations, then `broken`, which creates a table and then fails. */
function migrationsWithBrokenLast(): string {
  const folder = path.join(dir, 'migrations');
  fs.cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8'));
  const last = journal.entries.at(-1);
  journal.entries.push({ idx: last.idx + 1, version: last.version, when: last.when + 1, tag: '9999_broken', breakpoints: true });
  fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  fs.writeFileSync(path.join(folder, '9999_broken.sql'), 'CREATE TABLE `half_done` (`id` integer);\n--> statement-breakpoint\nINSERT INTO `no_such_table` VALUES (1);\n');
  return folder;
}

test('the database is exactly as it was, and the error names the broken migration', async () => {
  const oldest = fixtureTags()[0]!;
  unpackFixture(oldest, path.join(dir, 'data'));
  const { db, client } = await openDatabase(`file:${path.join(dir, 'data', 'studio.db')}`);
  try {
    const before = await dbFingerprint(client);
    const schemaBefore = (await client.execute('SELECT type, name, sql FROM sqlite_master ORDER BY name')).rows;
    const error = await applyMigrations(db, migrationsWithBrokenLast()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/^Migration 9999_broken failed: .*no such table: no_such_table.*\. The database was left as it was: none of the \d+ pending migrations was applied\.$/);
    expect(await dbFingerprint(client)).toEqual(before);
    expect((await client.execute('SELECT type, name, sql FROM sqlite_master ORDER BY name')).rows).toEqual(schemaBefore);
    // Foreign keys are on again after the failed batch turned them off.
    expect(Number(Object.values((await client.execute('PRAGMA foreign_keys')).rows[0]!)[0])).toBe(1);

    // Without the broken one, the same upgrade goes through (the failure was the migration's).
    await applyMigrations(db);
    expect(Object.keys(await dbFingerprint(client))).toContain('worker_heartbeats');
  } finally {
    client.close();
  }
});
