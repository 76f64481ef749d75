// Where resumable uploads wait: MEDIA_DIR/.uploads/<id> (the bytes) and <id>.json (tus's
// record of length and metadata). Same file system as the media folders, so finishing an
// upload is a rename. The dot-name never matches a storage key, so nothing here is served
// and the media sweep (src/server/media/sweep.ts) leaves it alone.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { config } from '../config.ts';

export const STAGING_DIR = path.join(config.mediaDir, '.uploads');

import { UPLOAD_ID_PATTERN } from '../../shared/schemas/media.ts';

export const UPLOAD_ID_RE = UPLOAD_ID_PATTERN;

export function newUploadId(): string {
  return randomBytes(16).toString('hex');
}

export function stagedFile(id: string): string {
  if (!UPLOAD_ID_RE.test(id)) throw new Error('Invalid upload id');
  return path.join(STAGING_DIR, id);
}

/** Removes an upload's bytes and tus record, on disk and (MEDIA_STORAGE=s3) in the bucket; missing files are fine. */
export async function removeStaged(id: string): Promise<void> {
  const file = stagedFile(id);
  await Promise.all([fs.rm(file, { force: true }), fs.rm(`${file}.json`, { force: true })]);
  if (config.MEDIA_STORAGE === 's3') await (await import('./s3-staging.ts')).removeS3Staged(id);
}

/** Bytes received so far (the tus offset: the file's size, or the bucket's parts), or null when it is gone. */
export async function stagedSize(id: string): Promise<number | null> {
  if (config.MEDIA_STORAGE === 's3') return (await import('./s3-staging.ts')).s3StagedSize(id);
  const stat = await fs.stat(stagedFile(id)).catch(() => null);
  return stat?.isFile() ? stat.size : null;
}

/**
 * Makes a complete upload's bytes available at stagedFile(id) for the ingest (with S3:
 * downloaded from the bucket; locally they are already there).
 */
export async function bringStagedHere(id: string): Promise<void> {
  if (config.MEDIA_STORAGE !== 's3') return;
  await fs.mkdir(STAGING_DIR, { recursive: true });
  await (await import('./s3-staging.ts')).downloadStaged(id, stagedFile(id));
}

/** After a successful ingest: drops what is left of the upload (the bucket's copy with S3). */
export async function dropStaged(id: string): Promise<void> {
  await fs.rm(`${stagedFile(id)}.json`, { force: true });
  if (config.MEDIA_STORAGE === 's3') await (await import('./s3-staging.ts')).removeS3Staged(id);
}
