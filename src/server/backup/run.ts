// One backup run, recorded in backup_runs whatever its outcome. Shared by `npm run backup`
// (scripts/backup.mjs) and the schedule in the running app (schedule.ts).
import type { Client } from '@libsql/client';
import { desc } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { backupRuns } from '../../db/schema.ts';
import { takeBackup, type BackupResult } from './snapshot.ts';
import { auditIn, systemOrigin } from '../audit/record.ts';

export interface RunOptions {
  db: Database;
  client: Client;
  databaseUrl: string;
  authToken?: string;
  mediaDir: string;
  to: string;
  keep?: number;
  trigger: 'schedule' | 'command';
  /** Who ran it, for the audit log: the schedule, or the command's user. */
  by?: string;
}

export type RunOutcome = { ok: true; result: BackupResult } | { ok: false; error: string };

export async function runBackup(opts: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date();
  let outcome: RunOutcome;
  try {
    const { client, databaseUrl, authToken, mediaDir, to, keep } = opts;
    outcome = { ok: true, result: await takeBackup({ client, databaseUrl, authToken, mediaDir, to, keep, now: startedAt }) };
  } catch (e) {
    outcome = { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  try {
    // The run's record and its audit row together (issue 56).
    await opts.db.transaction(async (tx) => {
      await tx.insert(backupRuns).values({
        startedAt,
        finishedAt: new Date(),
        ok: outcome.ok,
        trigger: opts.trigger,
        snapshot: outcome.ok ? outcome.result.name : null,
        files: outcome.ok ? outcome.result.files : 0,
        bytes: outcome.ok ? outcome.result.bytes : 0,
        newFiles: outcome.ok ? outcome.result.newFiles : 0,
        message: outcome.ok ? (outcome.result.warnings.join('\n') || null) : outcome.error,
      });
      await auditIn(tx, systemOrigin(opts.by ?? (opts.trigger === 'schedule' ? 'Backup schedule' : 'npm run backup')), {
        kind: outcome.ok ? 'backup.made' : 'backup.failed',
        object: { type: 'backup', id: outcome.ok ? outcome.result.name : 'failed' },
        detail: outcome.ok ? { trigger: opts.trigger, files: outcome.result.files, bytes: outcome.result.bytes } : { trigger: opts.trigger, error: outcome.error },
      });
    });
  } catch (e) {
    // The backup itself stands; only its record is lost (e.g. a database not migrated yet).
    console.error('Could not record the backup run:', e);
  }
  return outcome;
}

export async function lastBackupRun(db: Database) {
  const [row] = await db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt), desc(backupRuns.id)).limit(1);
  return row ?? null;
}
