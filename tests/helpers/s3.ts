// A bucket of its own on the run's radosgw (tests/setup/radosgw.ts), and ways to look inside it.
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { s3TestClient } from './server.ts';
import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';

/** A client for the run's radosgw. */
export const s3Client = s3TestClient;

/** Creates a fresh bucket; answers the env a server needs to keep its media there. */
export async function newBucket(extra: Record<string, string> = {}): Promise<{ bucket: string; env: Record<string, string> }> {
  const bucket = `studio-${randomBytes(6).toString('hex')}`;
  await s3Client().send(new CreateBucketCommand({ Bucket: bucket }));
  return { bucket, env: { ...inject('radosgw'), MEDIA_STORAGE: 's3', S3_DELIVERY: 'redirect', S3_BUCKET: bucket, ...extra } };
}

/** Every object key in the bucket under `prefix`. */
export async function objectKeys(bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3Client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}
