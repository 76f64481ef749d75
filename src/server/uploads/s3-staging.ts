// Unfinished resumable uploads in the S3 bucket (MEDIA_STORAGE=s3, issue 18): @tus/s3-store
// keeps each upload as an S3 multipart upload named by its id (plus `<id>.info`), so chunks
// may reach any web process on any machine. Finishing downloads the complete object into
// the local staging folder, where the usual ingest takes it, and then drops it from the bucket.
import { PassThrough, type Readable } from 'node:stream';
import { DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import type { KvStore } from '@tus/utils';
import { bucket, downloadObject, s3, s3ClientConfig } from '../storage/s3.ts';

/**
 * No caching of an upload's record between requests: with several processes a cached record
 * would be stale once another process completed the upload. Each request reads `<id>.info`.
 */
class NoCache<T> implements KvStore<T> {
  async get(): Promise<T | undefined> {
    return undefined;
  }
  async set(): Promise<void> {}
  async delete(): Promise<void> {}
}

/**
 * Keeps what a cut request sent, as the staging folder does (bytes that reached the file
 * count). @tus/s3-store takes the short part of the previous request back out of the bucket to
 * put it in front of the new bytes, and when the request then fails (the client hung up) it
 * throws that chunk away: the upload fell back to its last full part, losing bytes already
 * acknowledged with 204 (issue 31). Here a failing request ends the store's stream instead, so
 * the chunk is stored (as the short part) and HEAD answers every byte received; the request
 * still fails as before.
 */
class KeepingS3Store extends S3Store {
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const received = new PassThrough();
    readable.once('error', () => {
      readable.unpipe(received);
      received.end();
    });
    readable.pipe(received);
    return super.write(received, id, offset);
  }
}

let store: S3Store | null = null;

export function s3UploadStore(expirationPeriodInMilliseconds: number): S3Store {
  store ??= new KeepingS3Store({
    partSize: 16 * 1024 * 1024,
    expirationPeriodInMilliseconds,
    // Tags are only used for expiry bookkeeping the app does itself (src/server/uploads/sweep.ts).
    useTags: false,
    cache: new NoCache(),
    s3ClientConfig: { ...s3ClientConfig(), bucket: bucket() },
  });
  return store;
}

/** Bytes received so far, or null when the upload is gone. */
export async function s3StagedSize(id: string): Promise<number | null> {
  try {
    return (await s3UploadStore(0).getUpload(id)).offset;
  } catch {
    return null;
  }
}

/** Copies a complete upload's object to `file` (the local staging path) for the ingest. */
export async function downloadStaged(id: string, file: string): Promise<void> {
  await downloadObject(id, file);
}

/** Removes an upload from the bucket, finished or not (missing is fine). */
export async function removeS3Staged(id: string): Promise<void> {
  await s3UploadStore(0)
    .remove(id)
    .catch(() => {});
  await s3().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: [{ Key: id }, { Key: `${id}.info` }, { Key: `${id}.part` }], Quiet: true } }));
}
