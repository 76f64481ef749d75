// One place that knows where a media item's files are kept: a local folder per item
// (MEDIA_DIR/<storageKey>/<variant>), or objects in an S3 bucket (./s3.ts, MEDIA_STORAGE=s3).
// Files are made in the item's local folder either way; publishItem then hands them to the
// store (a no-op locally), so callers never care which one is in use. Writes go to a scratch name first and are moved
// into place whole, so a reader never sees a half-written file.
import fs from 'node:fs/promises';
import path from 'node:path';
import { mediaFilePath, mediaFolder, tempFilePath } from './paths.ts';
import { config } from '../config.ts';

export interface Storage {
  /** A local file ffmpeg can read (the S3 driver will download it first). */
  localPath(storageKey: string, variant: string): Promise<string>;
  /** A fresh scratch path for one output; it is never served. */
  scratch(storageKey: string, suffix?: string): string;
  /** Moves a finished scratch file into place as `variant`. */
  commit(storageKey: string, scratchPath: string, variant: string): Promise<void>;
  /** Removes the item's scratch files whose name contains `marker` (left by a killed process). */
  clearScratch(storageKey: string, marker: string): Promise<void>;
  /** Removes scratch files (missing ones are fine). */
  discard(...scratchPaths: string[]): Promise<void>;
  exists(storageKey: string, variant: string): Promise<boolean>;
  remove(storageKey: string, variant: string): Promise<void>;
  /** Whether the item's folder is still there (false once the item is deleted). */
  itemExists(storageKey: string): Promise<boolean>;
  removeItem(storageKey: string): Promise<void>;
  /**
   * After files were made in the item's local folder: stores them (S3: uploads, then removes
   * the local copies). `variants` limits it to those files (a new poster), leaving the rest.
   */
  publishItem(storageKey: string, variants?: readonly string[]): Promise<void>;
  /** Drops local working copies of a stored item (S3 only; locally they are the item). */
  releaseLocal(storageKey: string): Promise<void>;
}

export const localStorage: Storage = {
  async localPath(storageKey, variant) {
    return mediaFilePath(storageKey, variant);
  },
  scratch(storageKey, suffix = '') {
    return tempFilePath(storageKey, suffix);
  },
  async commit(storageKey, scratchPath, variant) {
    await fs.rename(scratchPath, mediaFilePath(storageKey, variant));
  },
  async clearScratch(storageKey, marker) {
    const dir = mediaFolder(storageKey);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    await Promise.all(names.filter((n) => n.startsWith('.tmp-') && n.includes(marker)).map((n) => fs.rm(path.join(dir, n), { force: true })));
  },
  async discard(...paths) {
    await Promise.all(paths.map((p) => fs.rm(p, { force: true })));
  },
  async exists(storageKey, variant) {
    return fs.stat(mediaFilePath(storageKey, variant)).then((s) => s.isFile(), () => false);
  },
  async remove(storageKey, variant) {
    await fs.rm(mediaFilePath(storageKey, variant), { force: true });
  },
  async itemExists(storageKey) {
    return fs.stat(mediaFolder(storageKey)).then((s) => s.isDirectory(), () => false);
  },
  async removeItem(storageKey) {
    // A worker still converting into the folder can add a file between the listing and the
    // rmdir (ENOTEMPTY); it is stopped within a heartbeat, so a few retries see it through.
    await fs.rm(mediaFolder(storageKey), { recursive: true, force: true, maxRetries: 8, retryDelay: 100 });
  },
  async publishItem() {},
  async releaseLocal() {},
};

// The S3 SDK is loaded only where the bucket is used (issue 43: about 10 MB a process otherwise).
export const storage: Storage = config.MEDIA_STORAGE === 's3' ? (await import('./s3.ts')).s3Storage : localStorage;
