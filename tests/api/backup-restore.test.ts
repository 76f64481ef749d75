// npm run backup / npm run restore against a live server under write load, the damaged-backup
// refusal, incremental snapshots, and the app's own scheduled backups shown on the dashboard.
// In the vitest project "sqld" the database is a libSQL server: the backup reads it in one
// snapshot and the restore fills a new, empty sqld (issue 44).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type InStatement } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, databaseOf, startServer, usesSqld, type TestServer } from '../helpers/server.ts';
import { freePort } from '../../scripts/sqld.mjs';
import { Session, clientSession } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { createClientWithPortalLogin, createVideo, type MediaFixture } from '../helpers/portal-fixtures.ts';
import { sampleImage, upload } from '../helpers/media-uploads.ts';
import { verifyAudit } from '../helpers/audit.ts';

interface Manifest {
  name: string;
  database: { path: string; size: number; sha256: string };
  files: { path: string; size: number; sha256: string }[];
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-backup-'));
const backupDir = path.join(tmp, 'backups');
let server: TestServer;
let admin: Session;
let video: MediaFixture;
const cleanups: (() => Promise<void>)[] = [];

function run(script: 'backup' | 'restore', args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'scripts', `${script}.mjs`), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: server.databaseUrl, MEDIA_DIR: server.mediaDir, ...env },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function backup(env: Record<string, string> = {}) {
  const r = await run('backup', ['--to', backupDir], env);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  const line = r.stdout.match(/^STUDIO_BACKUP (.*)$/m);
  expect(line, r.stdout).not.toBeNull();
  return JSON.parse(line![1]!) as { name: string; dir: string; files: number; newFiles: number; linked: number; copied: number };
}

const sha256 = (data: Buffer | Uint8Array) => createHash('sha256').update(data).digest('hex');
const manifestOf = (dir: string): Manifest => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

/** Every stored object with its inode, so a re-link or copy shows as a change. */
function objects(): Map<string, number> {
  const out = new Map<string, number>();
  const root = path.join(backupDir, 'objects');
  for (const shard of fs.readdirSync(root)) {
    for (const f of fs.readdirSync(path.join(root, shard))) out.set(f, fs.statSync(path.join(root, shard, f)).ino);
  }
  return out;
}

beforeAll(async () => {
  server = await startServer();
  admin = await adminSession(server.url);
});
afterAll(async () => {
  for (const c of cleanups) await c();
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('backup under load, then restore', () => {
  let snapshot: string;
  let acked: { feedback: { id: number; text: string }[]; uploads: { id: number; url: string; sha: string }[] };
  let restored: TestServer;

  test('a backup taken while 20 writers are active holds every write acknowledged before it started', async () => {
    const client = await createClientWithPortalLogin(server, 'Backup');
    video = await createVideo(server, { title: 'Cut under load', assign: [client.clientId] });
    const images = await Promise.all([0, 1, 2].map((i) => sampleImage('jpeg', 400 + i * 40, 300, ['#c2410c', '#0369a1', '#15803d'][i])));

    const feedback: { id: number; text: string; at: number }[] = [];
    const uploads: { id: number; url: string; sha: string; at: number }[] = [];
    let stop = false;
    const errors: string[] = [];
    // One sign-in shared by the writers: parallel sign-ins to one account from one address
    // are throttled (5 per account and address), and that is not what this test is about.
    const s = await clientSession(server.url, client.username, client.password);
    const feedbackWriter = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const text = `writer ${n} note ${i}`;
        const r = await s.json('POST', `/api/client/media/${video.id}/feedback`, { mediaId: video.id, feedbackText: text, rating: 1 + (i % 5) });
        if (r.status !== 201) errors.push(`feedback ${r.status} ${JSON.stringify(r.body)}`);
        else feedback.push({ id: r.body.id, text, at: Date.now() });
      }
    };
    const uploadWriter = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const data = images[n]!;
        const r = await upload(admin, { title: `upload ${n}.${i}` }, { data, name: `u${n}-${i}.jpg`, type: 'image/jpeg' });
        if (r.status !== 201) errors.push(`upload ${r.status} ${JSON.stringify(r.body)}`);
        else uploads.push({ id: r.body.id, url: r.body.url, sha: sha256(data), at: Date.now() });
      }
    };
    const writers = [...Array.from({ length: 17 }, (_, n) => feedbackWriter(n)), ...[0, 1, 2].map(uploadWriter)];

    // Let the load build up, then take the backup while it goes on.
    while (feedback.length < 40 || uploads.length < 3) await new Promise((r) => setTimeout(r, 50));
    const backupStarted = Date.now();
    const result = await backup();
    const during = feedback.filter((f) => f.at > backupStarted).length;
    stop = true;
    await Promise.all(writers);
    expect(errors).toEqual([]);
    // The writers really were writing while the backup ran.
    expect(during).toBeGreaterThan(0);

    snapshot = result.dir;
    acked = {
      feedback: feedback.filter((f) => f.at < backupStarted),
      uploads: uploads.filter((u) => u.at < backupStarted),
    };
    expect(acked.uploads.length).toBeGreaterThanOrEqual(3);
    expect(result.linked).toBe(result.newFiles); // same file system: hard links, no copies
    expect(result.copied).toBe(0);
  }, 180_000);

  test('restore into a fresh folder gives a working server with every acknowledged write', async () => {
    const target = path.join(tmp, 'restored');
    if (usesSqld) {
      // Into a new, empty sqld (DATABASE_URL), the media into MEDIA_DIR.
      const database = await databaseOf(target);
      cleanups.push(database.release);
      const r = await run('restore', ['--from', backupDir], { DATABASE_URL: database.url, MEDIA_DIR: path.join(target, 'media') });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/client_feedback: \d+ rows/);
      expect(fs.readdirSync(target).sort()).toEqual(['media', 'sqld']);
    } else {
      const r = await run('restore', ['--from', backupDir, '--to', target]);
      expect(r.code, r.stderr).toBe(0);
      expect(fs.readdirSync(target).sort()).toEqual(['media', 'studio.db']);
    }

    // Every media file matches its manifest checksum.
    const manifest = manifestOf(snapshot);
    expect(manifest.files.length).toBeGreaterThan(0);
    for (const f of manifest.files) {
      const data = fs.readFileSync(path.join(target, 'media', f.path));
      expect(sha256(data), f.path).toBe(f.sha256);
    }

    restored = await startServer({ dir: target });
    cleanups.push(() => restored.stop());
    const check = await restored.sql.execute('PRAGMA integrity_check');
    expect(check.rows.map((row) => String(Object.values(row)[0]))).toEqual(['ok']);

    const rows = await restored.sql.execute('SELECT id, feedback_text FROM client_feedback');
    const have = new Map(rows.rows.map((row) => [Number(row.id), String(row.feedback_text)]));
    for (const f of acked.feedback) expect(have.get(f.id), `feedback ${f.id}`).toBe(f.text);

    const restoredAdmin = await adminSession(restored.url);
    for (const u of acked.uploads) {
      const res = await restoredAdmin.get(u.url);
      expect(res.status, u.url).toBe(200);
      expect(sha256(Buffer.from(await res.arrayBuffer())), u.url).toBe(u.sha);
    }
    // The video plays: served with its type, and seekable by range.
    const res = await restoredAdmin.get(video.url, { Range: 'bytes=0-99' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    const original = fs.readFileSync(path.join(server.mediaDir, video.url.replace('/media/', '')));
    expect(Buffer.from(await res.arrayBuffer())).toEqual(original.subarray(0, 100));
    // Every media row of the restored database is served.
    const media = await restored.sql.execute('SELECT url FROM media');
    for (const row of media.rows) expect((await restoredAdmin.get(String(row.url))).status, String(row.url)).toBe(200);
  }, 120_000);

  test('the audit log survives: the rows and chain of the backup, then the backup and the restore as rows of their own (issue 56)', async () => {
    const rows = async (t: TestServer) => (await t.sql.execute('SELECT id, kind, actor_name FROM audit_log ORDER BY id')).rows.map((r) => ({ id: Number(r.id), kind: String(r.kind), by: String(r.actor_name) }));
    const restoredRows = await rows(restored);
    // Every row the backup held, in order, then the restore.
    const sourceRows = await rows(server);
    const made = sourceRows.find((r) => r.kind === 'backup.made');
    expect(made, 'the backup is a row of the source').toBeTruthy();
    expect(made!.by).toMatch(/^npm run backup \(/);
    // The restored server has written its own rows since (the test above downloads originals).
    const at = restoredRows.findIndex((r) => r.kind === 'backup.restored');
    expect(at).toBeGreaterThan(0);
    expect(restoredRows[at]!.by).toMatch(/^npm run restore \(/);
    const kept = restoredRows.slice(0, at);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(sourceRows.slice(0, kept.length)).toEqual(kept);
    expect(kept.map((r) => r.kind)).toContain('sign_in.succeeded');
    const r = await verifyAudit(restored.databaseUrl);
    expect(r.code, r.out).toBe(0);
  });

  test('restore refuses a non-empty data folder unless --force', async () => {
    const target = path.join(tmp, 'occupied');
    fs.mkdirSync(path.join(target, 'media'), { recursive: true });
    fs.writeFileSync(path.join(target, 'media', 'keep.txt'), 'mine');
    const refused = await run('restore', ['--from', backupDir, '--to', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not empty.*--force/s);
    expect(fs.readdirSync(target)).toEqual(['media']);
    expect(fs.readdirSync(path.join(target, 'media'))).toEqual(['keep.txt']);

    const forced = await run('restore', ['--from', backupDir, '--to', target, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.existsSync(path.join(target, 'media', 'keep.txt'))).toBe(false);
    expect(fs.readdirSync(path.join(target, 'media')).length).toBeGreaterThan(0);
  });
});

describe('incremental', () => {
  test('a second backup of an unchanged library stores no media file again', async () => {
    const first = await backup();
    const before = objects();
    const second = await backup();
    expect(second.name).not.toBe(first.name);
    expect(second.files).toBe(first.files);
    expect(second.newFiles).toBe(0);
    // Nothing new in objects/, and nothing re-linked or re-copied (same inodes).
    expect(objects()).toEqual(before);
    expect(manifestOf(second.dir).files).toEqual(manifestOf(first.dir).files);
  }, 60_000);

  test('a new upload is the only thing the next backup stores', async () => {
    const before = objects();
    const r = await upload(admin, { title: 'New after backup' }, { data: await sampleImage('png', 333, 222), name: 'new.png', type: 'image/png' });
    expect(r.status).toBe(201);
    const next = await backup();
    const after = objects();
    const added = [...after.keys()].filter((k) => !before.has(k));
    const key = r.body.url.match(/[a-f0-9]{32}/)[0];
    const fresh = manifestOf(next.dir).files.filter((f) => f.path.startsWith(`${key}/`));
    expect(fresh.length).toBeGreaterThanOrEqual(4); // original, thumbnails, webp
    expect(next.newFiles).toBe(added.length);
    expect(added.sort()).toEqual([...new Set(fresh.map((f) => f.sha256))].sort());
  }, 60_000);
});

describe('a damaged backup', () => {
  test.each([
    ['an altered file', 'altered', (file: string) => {
      // Replaced (new inode), not edited in place: the object is hard-linked to the live file.
      const data = fs.readFileSync(file);
      data[data.length >> 1] ^= 0xff; // same size: only the checksum can tell
      fs.writeFileSync(`${file}.new`, data);
      fs.renameSync(`${file}.new`, file);
    }],
    ['a missing file', 'missing', (file: string) => fs.rmSync(file)],
    ['an altered database copy', 'altered', null],
  ] as const)('%s is named by restore and nothing is restored', async (_label, word, damage) => {
    const snap = await backup();
    const manifest = manifestOf(snap.dir);
    const victim = damage ? manifest.files.find((f) => f.path.endsWith('/original.mp4'))! : null;
    const file = victim ? path.join(backupDir, 'objects', victim.sha256.slice(0, 2), victim.sha256) : path.join(snap.dir, 'studio.db');
    const saved = path.join(tmp, 'saved-object');
    fs.copyFileSync(file, saved);
    if (damage) damage(file);
    else fs.appendFileSync(file, 'x');
    try {
      const target = path.join(tmp, `damaged-${word}-${Date.now()}`);
      const r = await run('restore', ['--from', backupDir, '--to', target]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('nothing was restored');
      expect(r.stderr).toContain(victim ? `${word}: media/${victim.path}` : `${word}: database studio.db`);
      expect(fs.existsSync(target)).toBe(false);
    } finally {
      fs.rmSync(file, { force: true });
      fs.copyFileSync(saved, file);
    }
  }, 60_000);
});

test('restore refuses a media file altered after verification, before its copy, and restores nothing', async () => {
  // Ballast rows make the database copy (the first thing restore writes, after verifying
  // everything) take a while, so the alteration lands between the check and the copy.
  const up = await upload(admin, { title: 'Altered during restore' }, { data: await sampleImage('png', 320, 200), name: 'altered.png', type: 'image/png' });
  expect(up.status).toBe(201);
  // The server's own writes (its worker's heartbeat, the image's follow-ups) may hold the
  // database a moment on a loaded machine: a statement refused as busy is sent again.
  const write = async (stmt: InStatement) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await server.sql.execute(stmt);
      } catch (e) {
        if (attempt >= 5 || !/SQLITE_BUSY|database is locked/.test(String((e as Error).message))) throw e;
      }
    }
  };
  await write('CREATE TABLE test_ballast (b BLOB)');
  for (let i = 0; i < 48; i++) await write({ sql: 'INSERT INTO test_ballast VALUES (randomblob(?))', args: [1024 * 1024] });
  const snap = await backup();
  await write('DROP TABLE test_ballast');
  const manifest = manifestOf(snap.dir);
  expect(manifest.database.size).toBeGreaterThan(48 * 1024 * 1024);
  // The last file restore copies whose content no other file shares (objects are stored once
  // per checksum: altering a shared one would alter its twins too, and restore names the first).
  const unique = manifest.files.filter((f: { sha256: string }) => manifest.files.filter((g: { sha256: string }) => g.sha256 === f.sha256).length === 1);
  const victim = unique[unique.length - 1]!;
  const file = path.join(backupDir, 'objects', victim.sha256.slice(0, 2), victim.sha256);
  const original = fs.readFileSync(file);
  const target = path.join(tmp, `altered-during-restore-${Date.now()}`);
  fs.mkdirSync(target);
  const seen: { names: string[] | null } = { names: null };
  // Restore writes nothing before every file has passed verification: its first write (the
  // database copy) is the signal that the victim was checked and is not yet copied.
  const watcher = fs.watch(target, (_event, name) => {
    if (seen.names || !name?.startsWith('studio.db.restore-')) return;
    seen.names = fs.readdirSync(target);
    // Same size (only the checksum can tell), replaced rather than edited: the object is hard-linked to the live file.
    const data = Buffer.from(original);
    data[data.length >> 1] ^= 0xff;
    fs.writeFileSync(`${file}.new`, data);
    fs.renameSync(`${file}.new`, file);
  });
  try {
    const r = await run('restore', ['--from', backupDir, '--to', target]);
    expect(seen.names, 'restore started writing').not.toBeNull();
    // When the victim was replaced, restore had not begun the media folder.
    expect(seen.names!.some((n) => n === 'media' || n.startsWith('.restore-'))).toBe(false);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`altered while restoring: media/${victim.path}; nothing was restored.`);
    expect(fs.readdirSync(target)).toEqual([]);
  } finally {
    watcher.close();
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, original);
  }
}, 120_000);

test('a database server that cannot be reached: the backup fails saying why, and leaves no snapshot', async () => {
  const to = path.join(tmp, 'unreachable');
  const r = await run('backup', ['--to', to], { DATABASE_URL: `http://127.0.0.1:${await freePort()}` });
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/Backup failed: .*ECONNREFUSED/);
  expect(fs.readdirSync(to).filter((n) => !n.startsWith('.') && n !== 'objects')).toEqual([]);
});

test.runIf(usesSqld)('restore refuses a database server that is not empty, and restores nothing', async () => {
  const target = path.join(tmp, 'server-occupied');
  const r = await run('restore', ['--from', backupDir], { DATABASE_URL: server.databaseUrl, MEDIA_DIR: path.join(target, 'media') });
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/is not empty \(\d+ tables\); nothing was restored/);
  expect(fs.existsSync(target)).toBe(false);
});

describe('scheduled backups in the running app', () => {
  async function runs(s: TestServer) {
    return (await s.sql.execute('SELECT ok, trigger, snapshot, message FROM backup_runs ORDER BY id')).rows;
  }
  async function waitFor<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const v = await what();
      if (ok(v) || Date.now() > until) return v;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  test('the app backs itself up every interval, keeps the last BACKUP_KEEP and shows the result', async () => {
    const dir = path.join(tmp, 'scheduled');
    // 0.0005 h = 1.8 s between runs.
    const s = await startServer({ env: { BACKUP_DIR: dir, BACKUP_INTERVAL_HOURS: '0.0005', BACKUP_KEEP: '2' } });
    cleanups.push(() => s.stop());
    const rows = await waitFor(() => runs(s), (r) => r.length >= 3);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => Number(r.ok) === 1 && r.trigger === 'schedule')).toBe(true);
    const snapshots = fs.readdirSync(dir).filter((n) => /^\d{4}-/.test(n));
    expect(snapshots.length).toBeLessThanOrEqual(2);
    expect(snapshots).toContain(String(rows.at(-1)!.snapshot));

    const page = await (await adminSession(s.url)).get('/admin/dashboard');
    const html = await page.text();
    expect(html).toContain('data-testid="backup-result">Succeeded<');
    expect(html).toContain('Every 0.0005 h, keeping the last 2.');
  }, 90_000);

  test('a failing backup is logged, recorded and shown on the dashboard', async () => {
    // A regular file where the backup folder should be: every run fails.
    const blocker = path.join(tmp, 'not-a-folder');
    fs.writeFileSync(blocker, 'x');
    const s = await startServer({ env: { BACKUP_DIR: blocker, BACKUP_INTERVAL_HOURS: '0.0005' } });
    cleanups.push(() => s.stop());
    const rows = await waitFor(() => runs(s), (r) => r.length >= 1);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(Number(rows[0]!.ok)).toBe(0);
    expect(String(rows[0]!.message)).toMatch(/ENOTDIR|EEXIST|not a directory/i);
    await waitFor(async () => s.output(), (o) => /Backup into .* FAILED/.test(o), 5000);
    expect(s.output()).toMatch(/Backup into .* FAILED/);
    const html = await (await (await adminSession(s.url)).get('/admin/dashboard')).text();
    expect(html).toContain('data-testid="backup-result">Failed<');
    expect(html).toContain('data-testid="backup-error"');
  }, 60_000);
});

test('the database copy is a real SQLite file, not a copy of a WAL database mid-write', async () => {
  const snap = await backup();
  const c = createClient({ url: `file:${path.join(snap.dir, 'studio.db')}` });
  try {
    // VACUUM INTO (or, from a server, the snapshot's copy) writes a self-contained file: no
    // -wal beside it, and it checks out.
    expect(fs.existsSync(path.join(snap.dir, 'studio.db-wal'))).toBe(false);
    const r = await c.execute('PRAGMA integrity_check');
    expect(String(Object.values(r.rows[0]!)[0])).toBe('ok');
  } finally {
    c.close();
  }
});
