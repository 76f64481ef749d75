// `npm run storage:migrate`: copies a local library (MEDIA_DIR) into the S3 bucket (issue 18).
// Every file of every item and version is uploaded, then read back and compared (size and
// SHA-256 of the bytes in the bucket). Nothing is switched: the app keeps using the local
// files until MEDIA_STORAGE=s3 is set, which the summary says to do only when every file
// verified. Running it again skips files already in the bucket with the same size and hash.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { Client } from '@libsql/client';
import { sha256File } from '../backup/files.ts';
import { mediaFolder, VARIANT_RE } from './paths.ts';
import { bucket, headObject, objectKey, putFile, s3 } from './s3.ts';

export interface MigrateReport {
  items: number;
  files: number;
  uploaded: number;
  skipped: number;
  bytes: number;
  failures: string[];
  /** Items whose folder is missing locally (nothing to copy). */
  missing: string[];
}

async function bucketSha256(storageKey: string, variant: string): Promise<{ sha256: string; size: number }> {
  const res = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: objectKey(storageKey, variant) }));
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.Body as Readable) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

export async function migrateLibrary(sql: Client, log: (line: string) => void): Promise<MigrateReport> {
  const rows = await sql.execute('SELECT storage_key FROM media UNION SELECT storage_key FROM media_versions');
  const keys = rows.rows.map((r) => String(r.storage_key));
  const report: MigrateReport = { items: keys.length, files: 0, uploaded: 0, skipped: 0, bytes: 0, failures: [], missing: [] };
  for (const key of keys) {
    const dir = mediaFolder(key);
    const names = await fs.readdir(dir).catch(() => null);
    if (!names) {
      report.missing.push(key);
      continue;
    }
    for (const variant of names.filter((n) => VARIANT_RE.test(n)).sort()) {
      const file = path.join(dir, variant);
      report.files++;
      try {
        const { size } = await fs.stat(file);
        const local = await sha256File(file);
        const head = await headObject(key, variant);
        if (head?.ContentLength === size && head.Metadata?.sha256 === local) {
          report.skipped++;
          continue;
        }
        await putFile(key, variant, file, { sha256: local });
        const copied = await bucketSha256(key, variant);
        if (copied.size !== size || copied.sha256 !== local) throw new Error(`verification failed (bucket has ${copied.size} bytes, sha256 ${copied.sha256.slice(0, 12)}…)`);
        report.uploaded++;
        report.bytes += size;
        log(`copied ${key}/${variant} (${size} bytes, verified)`);
      } catch (e) {
        report.failures.push(`${key}/${variant}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  return report;
}
