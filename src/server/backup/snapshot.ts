// Takes one consistent backup while the app keeps serving.
//
// Layout of a backup folder:
//   DIR/objects/<aa>/<sha256>        every media file once, content-addressed
//   DIR/<UTC time>/studio.db         the database: copied by SQLite (VACUUM INTO) from a file, or
//                                    read in one snapshot from a libSQL server (database-copy.ts)
//   DIR/<UTC time>/manifest.json     each media file's path, size and SHA-256, and the database's
//
// Order matters. The database is copied first; media files are then read. The app writes a
// media file before the row that names it and deletes the row before its files, so every row
// in the copy has its files on disk when the copy is taken; only an item deleted during the
// walk can be missing, and that is recorded as a warning in the manifest.
//
// Media files are never rewritten in place (derivatives and originals are written to a scratch
// name and renamed), so a hard link is a frozen copy; objects are linked when DIR is on the
// media file system and copied otherwise. A file already in objects/ (same SHA-256 and size)
// is not stored again, which makes every backup after the first incremental.
import { createClient, type Client } from '@libsql/client';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { copyDatabase } from './database-copy.ts';
import { connect } from '../../db/connect.ts';
import {
  DATABASE_FILE,
  MANIFEST,
  OBJECTS,
  SNAPSHOT_RE,
  copyHashing,
  databaseFile,
  objectPath,
  sha256File,
  walkMedia,
  type Manifest,
} from './files.ts';

export interface BackupOptions {
  /** A connection to the live database. */
  client: Client;
  /** DATABASE_URL: a server database is read through a connection of its own. */
  databaseUrl: string;
  authToken?: string;
  mediaDir: string;
  /** The backup folder (created when missing). */
  to: string;
  /** Snapshots to keep (oldest removed first); unset keeps all. */
  keep?: number;
  now?: Date;
}

export interface BackupResult {
  name: string;
  dir: string;
  files: number;
  bytes: number;
  /** Media files stored in objects/ this time (linked or copied). */
  newFiles: number;
  linked: number;
  copied: number;
  removedSnapshots: string[];
  warnings: string[];
}

export class BackupError extends Error {}

const LOCK = '.lock';
const STALE_LOCK_MS = 12 * 60 * 60 * 1000;

function snapshotName(now: Date): string {
  return now.toISOString().replace(/:/g, '-').replace('.', '-');
}

/** One backup at a time per folder (the schedule and a manual run may meet). */
async function lock(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const h = await fs.open(file, 'wx');
      await h.writeFile(`${process.pid}\n`);
      await h.close();
      return () => fs.rm(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const stat = await fs.stat(file).catch(() => null);
      // A lock left by a killed run would block every later backup.
      if (stat && Date.now() - stat.mtimeMs > STALE_LOCK_MS) await fs.rm(file, { force: true });
      else break;
    }
  }
  throw new BackupError(`Another backup is running into ${dir} (remove ${file} if it is not).`);
}

export async function listSnapshots(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const names: string[] = [];
  for (const e of entries) {
    if (e.isDirectory() && SNAPSHOT_RE.test(e.name) && (await fs.stat(path.join(dir, e.name, MANIFEST)).catch(() => null))) {
      names.push(e.name);
    }
  }
  return names.sort();
}

export async function readManifest(snapshotDir: string): Promise<Manifest> {
  return JSON.parse(await fs.readFile(path.join(snapshotDir, MANIFEST), 'utf8')) as Manifest;
}

interface Stored {
  sha256: string;
  size: number;
  isNew: boolean;
  how: 'link' | 'copy' | 'existing';
}

/**
 * Puts one media file into objects/. `known` is the previous snapshot's entry for the same
 * path: the same inode, size and mtime means the same bytes (files are never rewritten in
 * place), so the file is not read again.
 */
async function store(
  root: string,
  file: string,
  known: { sha256: string; size: number; mtimeMs?: number; ino?: number } | undefined,
): Promise<(Stored & { mtimeMs: number; ino: number }) | null> {
  const stat = await fs.stat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (!stat) return null; // deleted while we walked
  const facts = { mtimeMs: stat.mtimeMs, ino: stat.ino };
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs && known.ino === stat.ino) {
    const obj = await fs.stat(objectPath(root, known.sha256)).catch(() => null);
    if (obj && obj.size === known.size) return { sha256: known.sha256, size: known.size, isNew: false, how: 'existing', ...facts };
  }
  let sha: string;
  try {
    sha = await sha256File(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const target = objectPath(root, sha);
  const existing = await fs.stat(target).catch(() => null);
  if (existing && existing.size === stat.size) return { sha256: sha, size: stat.size, isNew: false, how: 'existing', ...facts };

  // Not stored yet: link (or copy) under a scratch name, then hash what was actually
  // captured, so a file replaced between the hash above and the link cannot be mislabelled.
  await fs.mkdir(path.dirname(target), { recursive: true });
  const tmp = path.join(root, OBJECTS, `.tmp-${randomBytes(8).toString('hex')}`);
  let how: 'link' | 'copy' = 'link';
  let captured: { sha256: string; size: number };
  try {
    try {
      await fs.link(file, tmp);
      const s = await fs.stat(tmp);
      captured = s.ino === stat.ino ? { sha256: sha, size: s.size } : { sha256: await sha256File(tmp), size: s.size };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      // Another file system, or one without hard links: copy.
      if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK'].includes(code ?? '')) throw e;
      how = 'copy';
      captured = await copyHashing(file, tmp);
    }
    const finalPath = objectPath(root, captured.sha256);
    await fs.mkdir(path.dirname(finalPath), { recursive: true });
    await fs.rename(tmp, finalPath);
    return { ...captured, isNew: true, how, ...facts };
  } catch (e) {
    await fs.rm(tmp, { force: true });
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Storage keys of media rows in a database copy, to spot items deleted during the walk. */
async function mediaKeys(dbFile: string): Promise<string[]> {
  const c = createClient({ url: `file:${dbFile}` });
  try {
    // Every version of an item has its own folder (media_versions, issue 16).
    const r = await c.execute('SELECT storage_key FROM media UNION SELECT storage_key FROM media_versions').catch(() => c.execute('SELECT storage_key FROM media'));
    return r.rows.map((row) => String(row.storage_key));
  } catch {
    return []; // an unmigrated database has no media table: nothing to check
  } finally {
    c.close();
  }
}

/** A consistent copy of the live database as a SQLite file: a read transaction either way, so writers carry on. */
async function copyDatabaseInto(opts: BackupOptions, file: string): Promise<void> {
  if (databaseFile(opts.databaseUrl)) {
    await opts.client.execute({ sql: 'VACUUM INTO ?', args: [file] });
    return;
  }
  // A server has no file to vacuum into: its rows are read in one snapshot and written here.
  const source = connect({ url: opts.databaseUrl, authToken: opts.authToken, intMode: 'bigint' });
  const target = createClient({ url: `file:${file}`, intMode: 'bigint' });
  try {
    await copyDatabase(source, target);
  } finally {
    source.close();
    target.close();
  }
}

export async function takeBackup(opts: BackupOptions): Promise<BackupResult> {
  const root = path.resolve(opts.to);
  const mediaDir = path.resolve(opts.mediaDir);
  if (root === mediaDir || root.startsWith(mediaDir + path.sep)) throw new BackupError('The backup folder must not be inside MEDIA_DIR.');
  await fs.mkdir(path.join(root, OBJECTS), { recursive: true });
  const unlock = await lock(root);
  const staging = path.join(root, `.tmp-${randomBytes(8).toString('hex')}`);
  try {
    // Under the lock, any scratch entry is from a run that was killed: clear it.
    for (const where of [root, path.join(root, OBJECTS)]) {
      for (const name of await fs.readdir(where)) {
        if (name.startsWith('.tmp-')) await fs.rm(path.join(where, name), { recursive: true, force: true });
      }
    }
    const snapshots = await listSnapshots(root);
    let name = snapshotName(opts.now ?? new Date());
    for (let i = 1; snapshots.includes(name); i++) name = `${snapshotName(opts.now ?? new Date())}-${i}`;
    await fs.mkdir(staging);

    const dbCopy = path.join(staging, DATABASE_FILE);
    await copyDatabaseInto(opts, dbCopy);
    const database = { path: DATABASE_FILE, size: (await fs.stat(dbCopy)).size, sha256: await sha256File(dbCopy) };

    const previous = snapshots.length ? await readManifest(path.join(root, snapshots[snapshots.length - 1]!)).catch(() => null) : null;
    const known = new Map((previous?.files ?? []).map((f) => [f.path, f]));
    const files: Manifest['files'] = [];
    let bytes = 0;
    let linked = 0;
    let copied = 0;
    for (const rel of await walkMedia(mediaDir)) {
      const stored = await store(root, path.join(mediaDir, ...rel.split('/')), known.get(rel));
      if (!stored) continue;
      files.push({ path: rel, size: stored.size, sha256: stored.sha256, mtimeMs: stored.mtimeMs, ino: stored.ino });
      bytes += stored.size;
      if (stored.how === 'link') linked++;
      if (stored.how === 'copy') copied++;
    }

    const folders = new Set(files.map((f) => f.path.split('/')[0]));
    const warnings = (await mediaKeys(dbCopy))
      .filter((key) => !folders.has(key))
      .map((key) => `media item ${key} was deleted while the backup ran; its row is in the database copy without files`);

    const manifest: Manifest = { format: 1, name, createdAt: (opts.now ?? new Date()).toISOString(), database, files, warnings };
    const handle = await fs.open(path.join(staging, MANIFEST), 'wx');
    await handle.writeFile(JSON.stringify(manifest, null, 1));
    await handle.sync();
    await handle.close();
    // The snapshot appears whole or not at all.
    await fs.rename(staging, path.join(root, name));

    const removedSnapshots = opts.keep ? await prune(root, opts.keep) : [];
    return { name, dir: path.join(root, name), files: files.length, bytes, newFiles: linked + copied, linked, copied, removedSnapshots, warnings };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
    await unlock();
  }
}

/** Keeps the newest `keep` snapshots, then removes objects no remaining manifest names. */
export async function prune(root: string, keep: number): Promise<string[]> {
  const snapshots = await listSnapshots(root);
  const remove = snapshots.slice(0, Math.max(0, snapshots.length - keep));
  for (const name of remove) await fs.rm(path.join(root, name), { recursive: true, force: true });
  if (!remove.length) return [];
  const referenced = new Set<string>();
  for (const name of snapshots.slice(remove.length)) {
    for (const f of (await readManifest(path.join(root, name))).files) referenced.add(f.sha256);
  }
  const objects = path.join(root, OBJECTS);
  for (const shard of await fs.readdir(objects).catch(() => [] as string[])) {
    if (shard.startsWith('.tmp-')) continue;
    for (const obj of await fs.readdir(path.join(objects, shard)).catch(() => [] as string[])) {
      if (!referenced.has(obj)) await fs.rm(path.join(objects, shard, obj), { force: true });
    }
  }
  return remove;
}
