// Unfinished resumable uploads in the S3 bucket (MEDIA_STORAGE=s3, issue 18): @tus/s3-store
// keeps each upload as an S3 multipart upload named by its id (plus `<id>.info`), so chunks
// may reach any web process on any machine. Finishing downloads the complete object into
// the local staging folder, where the usual ingest takes it, and then drops it from the bucket.
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

let store: S3Store | null = null;

export function s3UploadStore(expirationPeriodInMilliseconds: number): S3Store {
  store ??= new S3Store({
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
