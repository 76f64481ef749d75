// Verifies a snapshot and restores it into a data folder:
//   <to>/studio.db     (start the app with DATABASE_URL=file:<to>/studio.db)
//   <to>/media/...     (and MEDIA_DIR=<to>/media)
// or its database into an empty libSQL server (DATABASE_URL on sqld; database-copy.ts) and
// its media into MEDIA_DIR.
// Everything is checked before anything is written: a missing or altered file is named and
// nothing is restored. Files are copied (a clone where the file system supports it), so the
// restored data never shares bytes with the backup it came from.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Client } from '@libsql/client';
import { connect } from '../../db/connect.ts';
import { copyDatabase, userTables, type TableCount } from './database-copy.ts';
import { DATABASE_FILE, MANIFEST, copyHashing, exists, isEmptyOrMissing, objectPath, sha256File, type Manifest } from './files.ts';
import { listSnapshots, readManifest } from './snapshot.ts';
import { drizzle } from 'drizzle-orm/libsql';
import * as schema from '../../db/schema.ts';
import type { Database } from '../../db/client.ts';
import { audit, systemOrigin } from '../audit/record.ts';

export class RestoreError extends Error {
  readonly problems: string[];
  constructor(message: string, problems: string[] = []) {
    super(problems.length ? `${message}\n${problems.map((p) => `  ${p}`).join('\n')}` : message);
    this.problems = problems;
  }
}

/**
 * `from` is a backup folder (its newest snapshot is used, or `snapshot` by name) or one
 * snapshot folder (it holds manifest.json). Returns the backup root and the snapshot folder.
 */
export async function locateSnapshot(from: string, snapshot?: string): Promise<{ root: string; dir: string }> {
  const abs = path.resolve(from);
  if (!snapshot && (await exists(path.join(abs, MANIFEST)))) return { root: path.dirname(abs), dir: abs };
  const names = await listSnapshots(abs);
  const name = snapshot ?? names[names.length - 1];
  if (!name || !names.includes(name)) {
    throw new RestoreError(snapshot ? `No snapshot named ${snapshot} in ${abs}.` : `No backup found in ${abs} (no snapshot folder with a ${MANIFEST}).`);
  }
  return { root: abs, dir: path.join(abs, name) };
}

/** Every problem with a snapshot: missing or altered files (by size, then SHA-256). */
export async function verifySnapshot(root: string, dir: string): Promise<{ manifest: Manifest; problems: string[] }> {
  let manifest: Manifest;
  try {
    manifest = await readManifest(dir);
  } catch {
    throw new RestoreError(`The manifest ${path.join(dir, MANIFEST)} is missing or unreadable.`);
  }
  if (manifest.format !== 1 || manifest.database?.path !== DATABASE_FILE || !Array.isArray(manifest.files)) {
    throw new RestoreError(`The manifest ${path.join(dir, MANIFEST)} is not a Studio backup manifest.`);
  }
  const problems: string[] = [];
  /** null when the file is whole, else what is wrong with it: [missing|altered, detail]. */
  const check = async (file: string, size: number, sha256: string): Promise<[string, string] | null> => {
    const stat = await fs.stat(file).catch(() => null);
    if (!stat) return ['missing', file];
    if (stat.size !== size) return ['altered', `size ${stat.size}, the manifest says ${size}`];
    if ((await sha256File(file)) !== sha256) return ['altered', 'SHA-256 does not match the manifest'];
    return null;
  };
  const db = await check(path.join(dir, manifest.database.path), manifest.database.size, manifest.database.sha256);
  if (db) problems.push(`${db[0]}: database ${manifest.database.path} (${db[1]})`);
  // Several paths may share one object: read each object once, name every path using it.
  const verdicts = new Map<string, [string, string] | null>();
  for (const f of manifest.files) {
    if (!verdicts.has(f.sha256)) verdicts.set(f.sha256, await check(objectPath(root, f.sha256), f.size, f.sha256));
    const verdict = verdicts.get(f.sha256);
    if (verdict) problems.push(`${verdict[0]}: media/${f.path} (${verdict[1]})`);
  }
  return { manifest, problems };
}

export interface RestoreOptions {
  from: string;
  snapshot?: string;
  /** Where the database goes: a file, or an empty libSQL server. */
  database: { file: string } | { url: string; authToken?: string };
  mediaDir: string;
  force?: boolean;
  /** Who restored, for the audit log ("npm run restore (alice)"). */
  by?: string;
}

export interface RestoreResult {
  snapshot: string;
  files: number;
  bytes: number;
  warnings: string[];
  /** Into a server: each table's rows, counted on both sides. */
  tables?: TableCount[];
}

async function removeDatabase(dbFile: string) {
  for (const suffix of ['', '-wal', '-shm', '-journal']) await fs.rm(dbFile + suffix, { force: true });
}

export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const { root, dir } = await locateSnapshot(opts.from, opts.snapshot);
  const { manifest, problems } = await verifySnapshot(root, dir);
  if (problems.length) throw new RestoreError(`The backup ${dir} is damaged; nothing was restored.`, problems);

  const server = 'url' in opts.database ? opts.database : null;
  const dbFile = server ? null : path.resolve((opts.database as { file: string }).file);
  const mediaDir = path.resolve(opts.mediaDir);
  if (server) {
    // A server is never overwritten: a forced restore would have to drop live tables under
    // running processes. An empty one is a new --db-path (docs/deploying.md).
    const tables = await withClient(server, (c) => userTables(c));
    if (tables.length) throw new RestoreError(`The database server ${server.url} is not empty (${tables.length} tables); nothing was restored. Restore into a new, empty sqld.`);
  }
  const occupied = (dbFile !== null && (await exists(dbFile))) || !(await isEmptyOrMissing(mediaDir));
  if (occupied && !opts.force) {
    throw new RestoreError(`The data folder is not empty (${dbFile ? `${dbFile} or ` : ''}${mediaDir}); nothing was restored. Use --force to replace it.`);
  }

  // Build next to the targets, then swap in, so a failure halfway leaves the old data alone.
  const tag = randomBytes(6).toString('hex');
  const dbHome = dbFile ? path.dirname(dbFile) : path.dirname(mediaDir);
  await fs.mkdir(dbHome, { recursive: true });
  await fs.mkdir(path.dirname(mediaDir), { recursive: true });
  // Into a server, the copy is only read from (never the backup's own file, which reading could touch).
  const newDb = dbFile ? `${dbFile}.restore-${tag}` : path.join(dbHome, `.restore-${tag}.db`);
  const newMedia = path.join(path.dirname(mediaDir), `.restore-${tag}`);
  let bytes = 0;
  let tables: TableCount[] | undefined;
  try {
    const copied = await copyHashing(path.join(dir, manifest.database.path), newDb);
    if (copied.sha256 !== manifest.database.sha256) throw new RestoreError('The database copy changed while it was restored; nothing was restored.');
    await fs.mkdir(newMedia);
    for (const f of manifest.files) {
      const target = path.join(newMedia, ...f.path.split('/'));
      if (!target.startsWith(newMedia + path.sep)) throw new RestoreError(`The manifest names a path outside the media folder: ${f.path}`);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const c = await copyHashing(objectPath(root, f.sha256), target);
      if (c.sha256 !== f.sha256) throw new RestoreError(`altered while restoring: media/${f.path}; nothing was restored.`);
      bytes += c.size;
    }
    // The server's copy is one transaction: it commits whole or not at all.
    if (server) tables = await withClient({ url: `file:${newDb}` }, (source) => withClient(server, (target) => copyDatabase(source, target)));
    if (occupied) {
      if (dbFile) await removeDatabase(dbFile);
      await fs.rm(mediaDir, { recursive: true, force: true });
    }
    await fs.rename(newMedia, mediaDir);
    if (dbFile) await fs.rename(newDb, dbFile);
  } catch (e) {
    await removeDatabase(newDb);
    await fs.rm(newMedia, { recursive: true, force: true });
    throw e;
  } finally {
    if (!dbFile) await removeDatabase(newDb);
  }
  const warnings = [...(manifest.warnings ?? [])];
  // The restore is a row of the restored log (issue 56), after the backup's own rows: the chain
  // goes on from the backup's head. A backup older than the audit log has none to add it to.
  try {
    // Numbers as numbers here (withClient reads bigints, for copying).
    const target = server ?? { url: `file:${dbFile}` };
    const c = connect({ url: target.url, authToken: 'authToken' in target ? target.authToken : undefined });
    try {
      await audit(drizzle(c, { schema }) as unknown as Database, systemOrigin(opts.by ?? 'npm run restore'), {
        kind: 'backup.restored',
        object: { type: 'backup', id: manifest.name },
        detail: { files: manifest.files.length, into: server ? 'server' : 'file' },
      });
    } finally {
      c.close();
    }
  } catch (e) {
    warnings.push(`the restore could not be written to the audit log (${String((e as Error).message ?? e).split('\n')[0]}); a backup made before the audit log has none until the app has migrated it`);
  }
  return { snapshot: manifest.name, files: manifest.files.length, bytes, warnings, tables };
}

async function withClient<T>(database: { url: string; authToken?: string }, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = connect({ url: database.url, authToken: database.authToken, intMode: 'bigint' });
  try {
    return await fn(c);
  } finally {
    c.close();
  }
}

export { DATABASE_FILE };
