// Starts the real built server (scripts/start.mjs --no-build) on a fresh temporary database
// and media folder. Every test file gets its own. Run `npm run build` first (npm test does).
// The processes are spawned and reaped through tests/helpers/processes.ts: none outlives its
// test file, and a restart always ends the process it replaces.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { randomBytes } from 'node:crypto';
import { spawnApp, stopProcess } from './processes.ts';
import { scratchDir } from './scratch.ts';
import { startSqld, type SqldProcess } from './sqld.ts';
import { connect } from '../../src/db/connect.ts';
import { recordServerStart } from './timing.ts';
import type * as S3Sdk from '@aws-sdk/client-s3';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** ffmpeg with its outputs kept by content (issue 52). */
export const CACHED_FFMPEG = path.join(ROOT, 'tests/helpers/ffmpeg-cached.mjs');
export const OUT_DIR = path.resolve(ROOT, process.env.STUDIO_OUT_DIR || 'dist');
export const ADMIN = { username: 'admin', email: 'admin@studio.test', password: 'admin-password-123' };
export const DEMO_CLIENT = { username: 'demo.client', password: 'portal-demo-2026' };

export interface TestServer {
  url: string;
  port: number;
  dir: string;
  /** The embedded database file (unused on sqld, where databaseUrl names the server). */
  dbFile: string;
  /** DATABASE_URL of this server: its file, or its sqld in the "sqld" project. */
  databaseUrl: string;
  mediaDir: string;
  proc: ChildProcess;
  output: () => string;
  /** A separate libSQL connection to the same database, for assertions and set-up. */
  sql: Client;
  stop: () => Promise<void>;
  /** Stops (SIGKILL) without cleaning up, for fault tests. */
  kill: () => Promise<void>;
  /** Starts the server again on the same database and media folder; a process still running is stopped first (SIGTERM). */
  restart: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse an existing folder (database and media) instead of a new temporary one. */
  dir?: string;
  /** A database of the test's own (e.g. a sqld it started itself) instead of the folder's. */
  databaseUrl?: string;
  /** How long the start may take (60 s): a first start seeding the demo on a busy machine takes longer. */
  startTimeoutMs?: number;
}

function launch(dir: string, env: Record<string, string>, timeoutMs = 60_000): Promise<{ proc: ChildProcess; port: number; output: () => string }> {
  if (!fs.existsSync(path.join(OUT_DIR, 'server', 'entry.mjs'))) {
    throw new Error(`No build in ${OUT_DIR}: run "npm run build" first.`);
  }
  const proc = spawnApp('scripts/start.mjs', ['--no-build'], {
    ...process.env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    MEDIA_DIR: path.join(dir, 'media'),
    // Notifications without SMTP_URL are written here, never into the repository's ./data.
    NOTIFY_DIR: path.join(dir, 'outbox'),
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DEMO_CONTENT: 'false',
    STUDIO_OUT_DIR: OUT_DIR,
    // The suite must hold beside other CPU-heavy processes (issue 40): a conversion at the
    // default nice 10 gets about a tenth of a core next to two busy ones, by design (it yields
    // to other work), which turns seconds into minutes. Tests of niceness set it themselves.
    FFMPEG_NICE: '0',
    // The same conversion's bytes from a cache after the first time (ffmpeg-cached.mjs); tests
    // of the pipeline's own timing set FFMPEG_PATH=ffmpeg.
    FFMPEG_PATH: CACHED_FFMPEG,
    ...env,
  });
  let out = '';
  const spawnedAt = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`Server did not start in time:\n${out}`));
    }, timeoutMs);
    let listening = false;
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = !listening && out.match(/STUDIO_LISTENING (\d+)/);
      if (m) {
        listening = true;
        clearTimeout(timer);
        recordServerStart(performance.now() - spawnedAt);
        resolve({ proc, port: Number(m[1]), output: () => out });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Server exited with ${code}:\n${out}`));
    });
  });
}

/**
 * The run's radosgw when this test file runs against the S3 driver (the vitest project "s3"
 * sets it from tests/setup/s3-driver.ts): every server then keeps its media in a bucket of its
 * own, streamed through the app (proxy delivery answers like the local driver; redirects have
 * their own tests in s3-storage.test.ts).
 */
const S3_RUN = process.env.STUDIO_TEST_S3 ? (JSON.parse(process.env.STUDIO_TEST_S3) as Record<string, string>) : null;
export const usesS3 = S3_RUN !== null;
// The S3 SDK costs about 0.4 s of CPU to load: only files of the "s3" project load it (issue 52).
const sdk: typeof S3Sdk | null = S3_RUN ? await import('@aws-sdk/client-s3') : null;
const { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, ListPartsCommand, PutObjectCommand, S3Client } = (sdk ?? {}) as typeof S3Sdk;
const bucketOfMediaDir = new Map<string, string>();
// Servers started together on one folder (multi-process tests) share one bucket.
const bucketMaking = new Map<string, Promise<string>>();

/** A client for the run's radosgw (S3 project only). */
export function s3TestClient() {
  if (!sdk) throw new Error('s3TestClient: only files of the "s3" project (STUDIO_TEST_S3) reach the run\'s radosgw.');
  return new S3Client({
    endpoint: S3_RUN!.S3_ENDPOINT,
    region: S3_RUN!.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_RUN!.S3_ACCESS_KEY_ID!, secretAccessKey: S3_RUN!.S3_SECRET_ACCESS_KEY! },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Fixtures write an item's files straight into MEDIA_DIR/<key>/; under the S3 driver they are
 * then moved into the server's bucket, where the app looks for them.
 */
export async function publishFixture(mediaDir: string, storageKey: string): Promise<void> {
  const bucket = bucketOfMediaDir.get(path.resolve(mediaDir));
  if (!bucket) return;
  const folder = path.join(mediaDir, storageKey);
  const client = s3TestClient();
  for (const name of fs.readdirSync(folder)) {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${storageKey}/${name}`, Body: fs.readFileSync(path.join(folder, name)) }));
  }
  fs.rmSync(folder, { recursive: true, force: true });
}

// Reading what a server stored, whichever driver it runs on (the local folder, or its bucket).
const bucketOf = (server: { mediaDir: string }) => bucketOfMediaDir.get(path.resolve(server.mediaDir));

/** The bytes of a stored file; null when there is none. */
export async function readStored(server: { mediaDir: string }, storageKey: string, variant: string): Promise<Buffer | null> {
  const bucket = bucketOf(server);
  if (!bucket) {
    const file = path.join(server.mediaDir, storageKey, variant);
    return fs.existsSync(file) ? fs.readFileSync(file) : null;
  }
  try {
    const res = await s3TestClient().send(new GetObjectCommand({ Bucket: bucket, Key: `${storageKey}/${variant}` }));
    return Buffer.from(await res.Body!.transformToByteArray());
  } catch {
    return null;
  }
}

/** The names of an item's stored files, sorted (scratch files excluded). */
export async function storedNames(server: { mediaDir: string }, storageKey: string): Promise<string[]> {
  const bucket = bucketOf(server);
  if (!bucket) {
    const dir = path.join(server.mediaDir, storageKey);
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort() : [];
  }
  const page = await s3TestClient().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${storageKey}/` }));
  return (page.Contents ?? []).map((o) => o.Key!.slice(storageKey.length + 1)).sort();
}

export async function removeStored(server: { mediaDir: string }, storageKey: string, variant: string): Promise<void> {
  const bucket = bucketOf(server);
  if (!bucket) return fs.rmSync(path.join(server.mediaDir, storageKey, variant));
  await s3TestClient().send(new DeleteObjectCommand({ Bucket: bucket, Key: `${storageKey}/${variant}` }));
}

/**
 * Whether an unfinished resumable upload still holds bytes: its staged file on disk, or its
 * record in the server's bucket (unfinished uploads live there under the S3 driver).
 */
export async function uploadStaged(server: { mediaDir: string }, id: string): Promise<boolean> {
  const bucket = bucketOf(server);
  if (!bucket) return fs.existsSync(path.join(server.mediaDir, '.uploads', id));
  const page = await s3TestClient().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: id }));
  return (page.Contents ?? []).some((o) => o.Key === id || o.Key === `${id}.info`);
}

/**
 * The bytes of an unfinished resumable upload that are kept (what a restarted server can
 * resume from): the staged file's size, or under the S3 driver the multipart upload's parts
 * plus the pending short part `<id>.part` (@tus/s3-store's layout). null when there is none.
 */
export async function stagedUploadBytes(server: { mediaDir: string }, id: string): Promise<number | null> {
  const bucket = bucketOf(server);
  if (!bucket) {
    const file = path.join(server.mediaDir, '.uploads', id);
    return fs.existsSync(file) ? fs.statSync(file).size : null;
  }
  const client = s3TestClient();
  let uploadId: string | undefined;
  try {
    uploadId = (await client.send(new HeadObjectCommand({ Bucket: bucket, Key: `${id}.info` }))).Metadata?.['upload-id'];
  } catch {
    return null;
  }
  let bytes = 0;
  let marker: string | undefined;
  do {
    const page = await client.send(new ListPartsCommand({ Bucket: bucket, Key: id, UploadId: uploadId, PartNumberMarker: marker }));
    for (const p of page.Parts ?? []) bytes += p.Size ?? 0;
    marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
  } while (marker);
  try {
    bytes += (await client.send(new HeadObjectCommand({ Bucket: bucket, Key: `${id}.part` }))).ContentLength ?? 0;
  } catch {
    // no short part pending
  }
  return bytes;
}

/** A local file holding a stored file's bytes (for ffprobe): the file itself, or a download. */
export async function storedLocalPath(server: { mediaDir: string }, storageKey: string, variant: string): Promise<string> {
  if (!bucketOf(server)) return path.join(server.mediaDir, storageKey, variant);
  const file = path.join(scratchDir('stored-'), variant);
  fs.writeFileSync(file, (await readStored(server, storageKey, variant))!);
  return file;
}

async function s3Env(dir: string): Promise<Record<string, string>> {
  if (!S3_RUN) return {};
  const mediaDir = path.resolve(dir, 'media');
  let making = bucketMaking.get(mediaDir);
  if (!making) {
    const bucket = `studio-${randomBytes(6).toString('hex')}`;
    making = s3TestClient()
      .send(new CreateBucketCommand({ Bucket: bucket }))
      .then(() => (bucketOfMediaDir.set(mediaDir, bucket), bucket));
    bucketMaking.set(mediaDir, making);
  }
  return { ...S3_RUN, MEDIA_STORAGE: 's3', S3_DELIVERY: 'proxy', S3_BUCKET: await making };
}

/** The storage settings a server runs with (empty on the local driver), for other processes on its library. */
export function storageEnv(server: { mediaDir: string }): Record<string, string> {
  const bucket = bucketOf(server);
  return bucket ? { ...S3_RUN!, MEDIA_STORAGE: 's3', S3_DELIVERY: 'proxy', S3_BUCKET: bucket } : {};
}

/**
 * The sqld binary when this test file runs against a libSQL server (the vitest project "sqld"
 * sets it from tests/setup/sqld-database.ts): every data folder then gets a sqld of its own,
 * started here, its data in DIR/sqld; servers started on one folder share it, and it stops
 * with the last of them.
 */
const SQLD_BIN = process.env.STUDIO_TEST_SQLD || null;
export const usesSqld = SQLD_BIN !== null;
const sqldOfDir = new Map<string, { started: Promise<SqldProcess>; users: number }>();

/**
 * The database of a data folder: its file, or (sqld project) its sqld, started when needed.
 * A server started on the folder later uses the same one; `release` when done with it.
 */
export async function databaseOf(dir: string): Promise<{ url: string; release: () => Promise<void> }> {
  if (!SQLD_BIN) return { url: `file:${path.join(dir, 'studio.db')}`, release: async () => {} };
  const key = path.resolve(dir);
  let entry = sqldOfDir.get(key);
  if (!entry) {
    entry = { started: startSqld({ dir: path.join(key, 'sqld'), binary: SQLD_BIN }), users: 0 };
    sqldOfDir.set(key, entry);
  }
  entry.users++;
  const sqld = await entry.started;
  const mine = entry;
  return {
    url: sqld.url,
    release: async () => {
      if (--mine.users > 0) return;
      sqldOfDir.delete(key);
      // The one running now (a fault test may have restarted it).
      const running = await mine.started;
      await running.stop();
      // sqld parses every statement itself, and refuses some that SQLite runs (issue 44: an
      // aggregate's ORDER BY): the app then answered 500, and a test may not have looked.
      const refused = fs.readFileSync(path.join(running.dir, 'sqld.log'), 'utf8').split('\n').filter((l) => /sqlite3Parser|SQL_PARSE_ERROR/.test(l));
      if (refused.length) throw new Error(`sqld could not parse statements the app sent:\n${refused.join('\n')}`);
    },
  };
}

/**
 * Stops the sqld of a server's data folder as a crash would (SIGKILL; sqld project only) and
 * answers how to start it again on the same address and data.
 */
export async function crashSqld(server: { dir: string }): Promise<{ start: () => Promise<SqldProcess> }> {
  const entry = sqldOfDir.get(path.resolve(server.dir));
  if (!entry) throw new Error(`no sqld for ${server.dir}`);
  const old = await entry.started;
  await old.stop('SIGKILL');
  return {
    start: () => (entry.started = startSqld({ dir: old.dir, httpPort: old.httpPort, grpcPort: old.grpcPort ?? undefined, binary: SQLD_BIN! })),
  };
}

/** The sqld of a data folder (sqld project only), e.g. to stop it in a fault test. */
export async function sqldOf(server: { dir: string }): Promise<SqldProcess> {
  const entry = sqldOfDir.get(path.resolve(server.dir));
  if (!entry) throw new Error(`no sqld for ${server.dir}`);
  return entry.started;
}

export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'studio-test-'));
  const database = opts.databaseUrl ? { url: opts.databaseUrl, release: async () => {} } : await databaseOf(dir);
  // The share-link key file's default is beside a database file; with a server it would be the
  // repository's ./data: keep it in the test's folder either way.
  const keyFile: Record<string, string> = database.url.startsWith('file:') ? {} : { SHARE_LINK_KEY_FILE: path.join(dir, 'share-link.key') };
  const env = { ...(await s3Env(dir)), DATABASE_URL: database.url, ...keyFile, ...(opts.env ?? {}) };
  let launched: Awaited<ReturnType<typeof launch>>;
  try {
    launched = await launch(dir, env, opts.startTimeoutMs);
  } catch (e) {
    try {
      await database.release();
    } finally {
      // A server that did not start leaves no folder behind either.
      if (!opts.dir) fs.rmSync(dir, { recursive: true, force: true });
    }
    throw e;
  }
  let { proc, port, output } = launched;
  const dbFile = path.join(dir, 'studio.db');
  // `timeout` is the busy timeout of every connection the file client opens (parallel calls open several).
  const sql = connect({ url: database.url, ...(usesSqld ? {} : { timeout: 5000 }) });
  const server: TestServer = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    dir,
    dbFile,
    databaseUrl: database.url,
    mediaDir: path.join(dir, 'media'),
    get proc() {
      return proc;
    },
    output: () => output(),
    sql,
    async stop() {
      sql.close();
      await stopProcess(proc, 'SIGTERM');
      try {
        await database.release();
      } finally {
        if (!opts.dir) fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    async kill() {
      await stopProcess(proc, 'SIGKILL');
    },
    async restart() {
      // Never two on one database: the one replaced ends first, as a real restart does.
      await stopProcess(proc, 'SIGTERM');
      ({ proc, port, output } = await launch(dir, env, opts.startTimeoutMs));
    },
  } as TestServer;
  return server;
}
