// What the admin dashboard shows about backups (src/server/backup/status.ts reads it; the
// dashboard island shows it). A type only, so the island need not import from src/server (issue 34).
export interface BackupStatus {
  scheduled: boolean;
  intervalHours: number;
  keep: number;
  last: {
    finishedAt: string;
    ok: boolean;
    trigger: 'schedule' | 'command';
    snapshot: string | null;
    files: number;
    newFiles: number;
    message: string | null;
  } | null;
}
