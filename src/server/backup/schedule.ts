// Scheduled backups inside the running app (BACKUP_DIR, BACKUP_INTERVAL_HOURS, BACKUP_KEEP).
// Started once by scripts/start.mjs after the server listens; the timer is unref'd so it
// never keeps a stopping process alive. The next run is timed from the last recorded one,
// so a restart neither skips a backup nor takes an extra one.
import type { Client } from '@libsql/client';
import type { Database } from '../../db/client.ts';
import { lastBackupRun, runBackup } from './run.ts';

export interface ScheduleOptions {
  db: Database;
  client: Client;
  databaseUrl: string;
  authToken?: string;
  mediaDir: string;
  dir: string;
  intervalHours: number;
  keep: number;
  log?: (line: string) => void;
}

/** The first run of a never-backed-up app waits at most this long after start-up. */
const FIRST_RUN_MAX_DELAY_MS = 60_000;
// setTimeout's limit; longer intervals are waited out in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;

export function startBackupSchedule(opts: ScheduleOptions): { stop: () => void } {
  const interval = opts.intervalHours * 60 * 60 * 1000;
  const log = opts.log ?? ((line: string) => console.log(line));
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const wait = (at: number) => {
    if (stopped) return;
    const delay = Math.max(0, at - Date.now());
    timer = setTimeout(() => (delay > MAX_TIMER_MS ? wait(at) : void tick()), Math.min(delay, MAX_TIMER_MS));
    timer.unref();
  };

  const tick = async () => {
    const outcome = await runBackup({ ...opts, to: opts.dir, trigger: 'schedule' });
    if (outcome.ok) {
      const r = outcome.result;
      log(`Backup ${r.name}: ${r.files} media files, ${r.newFiles} new, into ${opts.dir}`);
      for (const w of r.warnings) log(`Backup warning: ${w}`);
    } else {
      console.error(`Backup into ${opts.dir} FAILED: ${outcome.error}`);
    }
    wait(Date.now() + interval);
  };

  lastBackupRun(opts.db)
    .catch(() => null)
    .then((last) => {
      const now = Date.now();
      wait(last ? Math.max(now, last.startedAt.getTime() + interval) : now + Math.min(interval, FIRST_RUN_MAX_DELAY_MS));
    });

  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
