import { migrate } from 'drizzle-orm/libsql/migrator';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.ts';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const RACE_RETRY_MS = 500;

/** Pending migrations could not be applied; none of them was (they run as one transaction). */
export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/**
 * Applies the pending migrations. drizzle runs them all in one transaction (libSQL's migrate
 * batch), so a failing statement leaves the database as it was: no half-upgraded schema
 * (tests/unit/migration-failure.test.ts). drizzle reads the last applied migration before its
 * batch, so when several processes start together after an upgrade, the losers' batches fail on
 * what the winner just created: one look again after a pause finds nothing left to do. A
 * genuinely broken migration fails twice and stops the start, naming itself.
 */
export async function applyMigrations(db: Database, folder: string = MIGRATIONS_DIR): Promise<void> {
  try {
    await migrate(db, { migrationsFolder: folder });
  } catch {
    await new Promise((r) => setTimeout(r, RACE_RETRY_MS));
    try {
      await migrate(db, { migrationsFolder: folder });
    } catch (e) {
      throw new MigrationError(await describeFailure(db, folder, e));
    }
  }
}

/** Which pending migration the failed statement of drizzle's batch belongs to. */
async function describeFailure(db: Database, folder: string, error: unknown): Promise<string> {
  const cause = error instanceof Error ? error.message : String(error);
  let pending: { tag: string; when: number; statements: number }[] = [];
  try {
    const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
    const last = await db.$client.execute('SELECT max(created_at) AS at FROM __drizzle_migrations');
    const lastAt = Number(last.rows[0]?.at ?? 0);
    pending = journal.entries
      .filter((e) => e.when > lastAt)
      // Each migration's statements, then drizzle's row recording it.
      .map((e) => ({ ...e, statements: fs.readFileSync(path.join(folder, `${e.tag}.sql`), 'utf8').split('--> statement-breakpoint').length + 1 }));
  } catch {
    /* the journal or the table cannot be read: say what we know */
  }
  const e = error as { statementIndex?: number; cause?: { statementIndex?: number } };
  let index = e.statementIndex ?? e.cause?.statementIndex;
  let failed: string | null = null;
  if (typeof index === 'number') {
    for (const m of pending) {
      if (index < m.statements) {
        failed = m.tag;
        break;
      }
      index -= m.statements;
    }
  }
  const which = failed ? `Migration ${failed} failed` : 'A migration failed';
  const count = pending.length ? `${pending.length} ` : '';
  return `${which}: ${cause}. The database was left as it was: none of the ${count}pending migrations was applied.`;
}
