// The S3 side of the storage module (issue 18): one object per file, keyed
// `<storageKey>/<variant>`, in S3_BUCKET on any S3-compatible service (AWS, R2, B2, Ceph, MinIO).
// Files are still made in the item's local folder (uploads, derivatives, conversions); they
// are then published to the bucket and the local copies removed, so MEDIA_DIR holds only work
// in progress.
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { config } from '../config.ts';
import { contentTypeForVariant, mediaFilePath, mediaFolder, tempFilePath, VARIANT_RE } from './paths.ts';
import { JOB_SCRATCH } from './markers.ts';

let client: S3Client | null = null;

/** The SDK settings from S3_*; also handed to @tus/s3-store (src/server/uploads/s3-staging.ts). */
export function s3ClientConfig(): S3ClientConfig {
  return {
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID!, secretAccessKey: config.S3_SECRET_ACCESS_KEY! },
    // Checksums the SDK adds by default are not understood by every S3-compatible service.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

export function s3(): S3Client {
  client ??= new S3Client(s3ClientConfig());
  return client;
}

// Re-exported: the bucket's name and origin need no SDK (s3-origin.ts, for the middleware).
export { bucket, bucketOrigin } from './s3-origin.ts';
import { bucket } from './s3-origin.ts';

export const objectKey = (storageKey: string, variant: string) => `${storageKey}/${variant}`;

const isMissing = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NotFound' || err?.name === 'NoSuchKey' || err?.$metadata?.httpStatusCode === 404;
};

/** Uploads one local file as `variant` (multipart for large files, so 2.5 GB originals fit). */
export async function putFile(storageKey: string, variant: string, file: string, metadata?: Record<string, string>): Promise<void> {
  const upload = new Upload({
    client: s3(),
    params: {
      Bucket: bucket(),
      Key: objectKey(storageKey, variant),
      Body: createReadStream(file),
      ContentType: contentTypeForVariant(variant, 'application/octet-stream'),
      ...(metadata ? { Metadata: metadata } : {}),
    },
    partSize: 16 * 1024 * 1024,
    queueSize: 4,
  });
  await upload.done();
}

/** Copies an object to `file`, through a temporary name, so `file` is whole or absent. */
export async function downloadObject(key: string, file: string): Promise<void> {
  const res = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  const tmp = `${file}.download-${process.pid}`;
  try {
    await pipeline(res.Body as Readable, createWriteStream(tmp));
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}

export async function headObject(storageKey: string, variant: string) {
  try {
    return await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: objectKey(storageKey, variant) }));
  } catch (e) {
    if (isMissing(e)) return null;
    throw e;
  }
}

/** Every object key under the item's prefix. */
async function listItem(storageKey: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `${storageKey}/`, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

export const s3Storage = {
  /** Downloads the object next to where the local driver keeps it, once, for ffmpeg to read. */
  async localPath(storageKey: string, variant: string): Promise<string> {
    const target = mediaFilePath(storageKey, variant);
    if (await fs.stat(target).then((s) => s.isFile(), () => false)) return target;
    await fs.mkdir(mediaFolder(storageKey), { recursive: true });
    await downloadObject(objectKey(storageKey, variant), target);
    return target;
  },
  scratch(storageKey: string, suffix = ''): string {
    return tempFilePath(storageKey, suffix);
  },
  async commit(storageKey: string, scratchPath: string, variant: string): Promise<void> {
    await putFile(storageKey, variant, scratchPath);
    await fs.rm(scratchPath, { force: true });
  },
  async clearScratch(storageKey: string, marker: string): Promise<void> {
    const dir = mediaFolder(storageKey);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    await Promise.all(names.filter((n) => n.startsWith('.tmp-') && n.includes(marker)).map((n) => fs.rm(path.join(dir, n), { force: true })));
  },
  async discard(...paths: string[]): Promise<void> {
    await Promise.all(paths.map((p) => fs.rm(p, { force: true })));
  },
  async exists(storageKey: string, variant: string): Promise<boolean> {
    return (await headObject(storageKey, variant)) !== null;
  },
  async remove(storageKey: string, variant: string): Promise<void> {
    await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: objectKey(storageKey, variant) }));
  },
  async itemExists(storageKey: string): Promise<boolean> {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `${storageKey}/`, MaxKeys: 1 }));
    return (page.KeyCount ?? 0) > 0;
  },
  async removeItem(storageKey: string): Promise<void> {
    const keys = await listItem(storageKey);
    for (let i = 0; i < keys.length; i += 1000) {
      await s3().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }));
    }
    await fs.rm(mediaFolder(storageKey), { recursive: true, force: true });
  },
  /** Uploads every finished file of the item's local folder, then removes the local copies. */
  async publishItem(storageKey: string, variants?: readonly string[]): Promise<void> {
    const dir = mediaFolder(storageKey);
    const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => VARIANT_RE.test(n) && (!variants || variants.includes(n)));
    for (const name of names) await putFile(storageKey, name, path.join(dir, name));
    if (variants) {
      await Promise.all(names.map((n) => fs.rm(path.join(dir, n), { force: true })));
      await fs.rmdir(dir).catch(() => {}); // only when nothing else is at work in it
    }
    else await fs.rm(dir, { recursive: true, force: true });
  },
  /**
   * Drops the worker's downloaded copies and its scratch outputs, then the folder if nothing
   * else is in it: a poster being received for the same item meanwhile keeps its files.
   */
  async releaseLocal(storageKey: string): Promise<void> {
    const dir = mediaFolder(storageKey);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const mine = names.filter((n) => VARIANT_RE.test(n) || n.includes('.download-') || (n.startsWith('.tmp-') && n.includes(JOB_SCRATCH)));
    await Promise.all(mine.map((n) => fs.rm(path.join(dir, n), { force: true })));
    await fs.rmdir(dir).catch(() => {});
  },
};

/**
 * Start-up check that the bucket is there and writable: one small object written, read back
 * and deleted. Throws an Error whose message says what to fix.
 */
export async function probeBucket(): Promise<void> {
  const Key = `.studio-probe-${process.pid}-${Date.now()}`;
  const where = `bucket "${bucket()}" at ${config.S3_ENDPOINT ?? `AWS ${config.S3_REGION}`}`;
  try {
    await s3().send(new PutObjectCommand({ Bucket: bucket(), Key, Body: 'ok' }));
    await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key }));
    await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key }));
  } catch (e) {
    const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = err.$metadata?.httpStatusCode;
    const why =
      err.name === 'NoSuchBucket' || status === 404
        ? 'the bucket does not exist (create it first)'
        : status === 403 || err.name === 'AccessDenied' || err.name === 'InvalidAccessKeyId' || err.name === 'SignatureDoesNotMatch'
          ? 'access denied: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY and the bucket policy'
          : `${err.name ?? 'error'}: ${err.message ?? String(e)}`;
    throw new Error(`MEDIA_STORAGE=s3: cannot write to ${where}: ${why}`);
  }
}

