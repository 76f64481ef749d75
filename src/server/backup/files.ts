// File helpers shared by backup and restore. Loaded both by the app bundle and by the
// `backup`/`restore` scripts under Node's TypeScript support, so: explicit .ts imports and
// no imports of modules that open the app's database.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export const MANIFEST = 'manifest.json';
export const DATABASE_FILE = 'studio.db';
export const OBJECTS = 'objects';
/** Snapshot folders are named by their UTC start time, so names sort by age. */
export const SNAPSHOT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z(-\d+)?$/;

export interface FileEntry {
  /** Relative to MEDIA_DIR, with forward slashes. */
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: 1;
  name: string;
  createdAt: string;
  database: { path: string; size: number; sha256: string };
  files: (FileEntry & { mtimeMs?: number; ino?: number })[];
  /** Items whose row is in the database copy but whose folder went away before it was read. */
  warnings: string[];
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

/** Copies a file and returns the SHA-256 of the bytes written, in one read. */
export async function copyHashing(from: string, to: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  await pipeline(createReadStream(from, { highWaterMark: 1024 * 1024 }), tap, createWriteStream(to, { flags: 'wx' }));
  return { sha256: hash.digest('hex'), size };
}

export function objectPath(root: string, sha256: string): string {
  return path.join(root, OBJECTS, sha256.slice(0, 2), sha256);
}

/**
 * Every media file under `dir`, relative paths with forward slashes. Skips what is not yet
 * (or no longer) a media file: `.tmp-*` scratch files of uploads and derivatives in progress,
 * and the `.uploads` staging folder of resumable uploads.
 */
export async function walkMedia(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (abs: string, rel: string) => {
    const entries = await fs.readdir(abs, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
      // A folder removed while we walk (a deleted item) is simply not part of this backup.
      if (e.code === 'ENOENT') return [];
      throw e;
    });
    for (const e of entries) {
      if (e.name.startsWith('.tmp-')) continue;
      if (rel === '' && e.name === '.uploads') continue;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await visit(path.join(abs, e.name), childRel);
      else if (e.isFile()) out.push(childRel);
    }
  };
  await visit(dir, '');
  return out.sort();
}

export async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

export async function isEmptyOrMissing(dir: string): Promise<boolean> {
  const entries = await fs.readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  return entries.length === 0;
}

/** The file path of an embedded libSQL URL (`file:...`), or null for a remote server. */
export function databaseFile(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const file = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '').split('?')[0]!;
  return file && file !== ':memory:' ? path.resolve(file) : null;
}
