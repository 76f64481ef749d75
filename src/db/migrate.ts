import { migrate } from 'drizzle-orm/libsql/migrator';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.ts';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const RACE_RETRY_MS = 500;

/**
 * Applies the pending migrations. drizzle reads the last applied migration before its
 * (atomic) batch, so when several processes start together after an upgrade, the losers'
 * batches fail on what the winner just created: one look again after a pause finds nothing
 * left to do. A genuinely broken migration fails twice and stops the start.
 */
export async function applyMigrations(db: Database): Promise<void> {
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch {
    await new Promise((r) => setTimeout(r, RACE_RETRY_MS));
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  }
}
