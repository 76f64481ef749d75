// Removes what a crashed or killed process can leave in MEDIA_DIR: folders of uploads that
// never got a row, and scratch files. Only old entries are touched, so uploads still in
// progress (up to the 4 h request timeout) are safe. Runs once per process, in the
// background, on the first upload.
import fs from 'node:fs/promises';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { mediaVersions } from '../../db/schema.ts';
import { config } from '../config.ts';
import { STORAGE_KEY_RE } from '../storage/paths.ts';

export const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

let started = false;

export function sweepOnce(): void {
  if (started) return;
  started = true;
  sweepStaleUploads().catch((e) => console.error('media sweep failed:', e));
}

export async function sweepStaleUploads(now = Date.now()): Promise<number> {
  const entries = await fs.readdir(config.mediaDir, { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((e) => e.isDirectory() && STORAGE_KEY_RE.test(e.name)).map((e) => e.name);
  let removed = 0;
  for (let i = 0; i < folders.length; i += 500) {
    const batch = folders.slice(i, i + 500);
    // Every version has its own folder; the item's current one is among them.
    const known = new Set((await db.select({ key: mediaVersions.storageKey }).from(mediaVersions).where(inArray(mediaVersions.storageKey, batch))).map((r) => r.key));
    for (const key of batch) {
      const dir = path.join(config.mediaDir, key);
      const stat = await fs.stat(dir).catch(() => null);
      if (!stat) continue;
      if (!known.has(key)) {
        if (now - stat.mtimeMs > STALE_AFTER_MS) {
          await fs.rm(dir, { recursive: true, force: true });
          removed++;
        }
        continue;
      }
      for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
        if (!name.startsWith('.tmp-')) continue;
        const file = path.join(dir, name);
        const s = await fs.stat(file).catch(() => null);
        if (s && now - s.mtimeMs > STALE_AFTER_MS) {
          await fs.rm(file, { force: true });
          removed++;
        }
      }
    }
  }
  return removed;
}
