// Expiry: an upload not finished within UPLOAD_EXPIRY_SECONDS (24 h) loses its bytes and its
// record. Expired records are swept before every new upload (cheap: an indexed query), and
// a background timer catches the rest; staged files without a record (their user was
// deleted) are removed once they are as old as an expired upload.
import fs from 'node:fs/promises';
import { inArray, lte } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { uploads } from '../../db/schema.ts';
import { expiryMs } from './records.ts';
import { config } from '../config.ts';
import { STAGING_DIR, UPLOAD_ID_RE, removeStaged, stagedFile } from './staging.ts';

const TIMER_MS = 60 * 60 * 1000;
let timer: NodeJS.Timeout | null = null;

/** Removes expired uploads (files and records); answers how many went. */
export async function sweepExpiredUploads(now = Date.now()): Promise<number> {
  const expired = await db
    .select({ id: uploads.id, finishedAt: uploads.finishedAt })
    .from(uploads)
    .where(lte(uploads.expiresAt, new Date(now)));
  if (!expired.length) return 0;
  // Files first: a crash in between leaves a record that the next sweep finishes off.
  for (const row of expired) if (!row.finishedAt) await removeStaged(row.id);
  await db.delete(uploads).where(inArray(uploads.id, expired.map((r) => r.id)));
  return expired.length;
}

/** Staged files with no record, older than the expiry period. */
export async function sweepOrphanedFiles(now = Date.now()): Promise<number> {
  const names = await fs.readdir(STAGING_DIR).catch(() => [] as string[]);
  const ids = [...new Set(names.map((n) => n.replace(/\.json$/, '')).filter((n) => UPLOAD_ID_RE.test(n)))];
  let removed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    const known = new Set((await db.select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, batch))).map((r) => r.id));
    for (const id of batch) {
      if (known.has(id)) continue;
      const stat = (await fs.stat(stagedFile(id)).catch(() => null)) ?? (await fs.stat(`${stagedFile(id)}.json`).catch(() => null));
      if (stat && now - stat.mtimeMs > expiryMs()) {
        await removeStaged(id);
        removed++;
      }
    }
  }
  return removed;
}

async function sweepAll(): Promise<void> {
  await sweepExpiredUploads();
  await sweepOrphanedFiles();
  // In the bucket: multipart uploads past the expiry whose record is gone (e.g. its user was deleted).
  if (config.MEDIA_STORAGE === 's3') await (await import('./s3-staging.ts')).s3UploadStore(expiryMs()).deleteExpired();
}

/** Starts the hourly background sweep (once per process). */
export function startUploadSweeper(): void {
  if (timer) return;
  timer = setInterval(() => void sweepAll().catch((e) => console.error('upload sweep failed:', e)), TIMER_MS);
  timer.unref();
  void sweepAll().catch((e) => console.error('upload sweep failed:', e));
}
