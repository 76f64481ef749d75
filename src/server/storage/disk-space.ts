// Free-space check on the media file system: an upload (or a transcode's expected outputs)
// is refused up front when it would leave less than MIN_FREE_BYTES free, rather than failing
// halfway with ENOSPC. A write that still hits a full disk is answered 507 too (isDiskFull).
import fs from 'node:fs/promises';
import path from 'node:path';
import { config } from '../config.ts';
import { HttpError } from '../http.ts';

export const DISK_FULL_MESSAGE = 'Not enough disk space for this upload';

/** Bytes an unprivileged writer may still use on the file system holding `dir`. */
export async function freeBytes(dir: string = config.mediaDir): Promise<number> {
  // MEDIA_DIR may not exist yet on a fresh install: ask about its nearest existing parent.
  let probe = path.resolve(dir);
  for (;;) {
    try {
      const s = await fs.statfs(probe);
      return s.bavail * s.bsize;
    } catch (e) {
      const parent = path.dirname(probe);
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || parent === probe) throw e;
      probe = parent;
    }
  }
}

/**
 * Throws 507 "Not enough disk space for this upload" when `bytes` more would leave less than
 * MIN_FREE_BYTES free on the media file system. For multipart uploads `bytes` is the request's
 * Content-Length; for resumable uploads the declared Upload-Length; for a transcode the
 * expected size of its outputs.
 */
export async function assertDiskSpaceFor(bytes: number, dir: string = config.mediaDir, margin: number = config.MIN_FREE_BYTES): Promise<void> {
  const free = await freeBytes(dir);
  if (Math.max(0, bytes) + margin > free) throw new HttpError(507, DISK_FULL_MESSAGE);
}

/** A write failed because the disk (or the database's disk) is full. */
export function isDiskFull(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e?.code === 'ENOSPC' || e?.code === 'EDQUOT' || e?.code === 'SQLITE_FULL') return true;
  return /\bENOSPC\b|No space left on device|database or disk is full/i.test(String(e?.message ?? ''));
}
