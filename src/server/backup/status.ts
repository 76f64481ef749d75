// What the admin dashboard shows about backups: whether the app takes them itself, and the
// time and result of the last run (scheduled or `npm run backup`).
import { db } from '../../db/index.ts';
import { config } from '../config.ts';
import { lastBackupRun } from './run.ts';
import type { BackupStatus } from '../../shared/backup-status.ts';

export async function getBackupStatus(): Promise<BackupStatus> {
  const row = await lastBackupRun(db);
  return {
    scheduled: !!config.backupDir,
    intervalHours: config.BACKUP_INTERVAL_HOURS,
    keep: config.BACKUP_KEEP,
    last: row
      ? {
          finishedAt: row.finishedAt.toISOString(),
          ok: row.ok,
          trigger: row.trigger,
          snapshot: row.snapshot,
          files: row.files,
          newFiles: row.newFiles,
          message: row.message,
        }
      : null,
  };
}
