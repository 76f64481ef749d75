// No upload accepted that the disk cannot hold: the server runs with MEDIA_DIR on a 20 MB
// tmpfs. An upload that would not leave MIN_FREE_BYTES is refused before it is read; one that
// still hits ENOSPC (a chunked body declares no size) is answered 507 with nothing left
// behind; the app keeps answering, and uploads work again once space is freed.
// Needs root to mount (CI runs as root); the mount is removed even when a test fails.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import type { Session } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import sharp from 'sharp';
import { sampleImage, upload } from '../helpers/media-uploads.ts';

const MB = 1024 * 1024;
const MESSAGE = 'Not enough disk space for this upload';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-disk-'));
const mnt = path.join(tmp, 'mnt');
const mediaDir = path.join(mnt, 'media');
const filler = path.join(mnt, 'filler');
let mounted = false;
let server: TestServer;
let admin: Session;

function unmount() {
  if (!mounted) return;
  try {
    execFileSync('umount', [mnt]);
  } catch {
    execFileSync('umount', ['-l', mnt]); // still busy (a process holds a file): detach it
  }
  mounted = false;
}
// A crash between mount and afterAll must not leave the mount behind either.
process.once('exit', () => {
  try {
    unmount();
  } catch {
    /* best effort */
  }
});

beforeAll(async () => {
  fs.mkdirSync(mnt);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=20m', 'tmpfs', mnt], { stdio: 'pipe' });
  } catch (e) {
    throw new Error(`This test mounts a 20 MB tmpfs and needs root (CI runs as root): ${(e as Error).message}`);
  }
  mounted = true;
  fs.mkdirSync(mediaDir);
  server = await startServer({ env: { MEDIA_DIR: mediaDir, MIN_FREE_BYTES: String(4 * MB) } });
  admin = await adminSession(server.url);
}, 90_000);

afterAll(async () => {
  await server?.stop();
  unmount();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const free = () => {
  const s = fs.statfsSync(mnt);
  return s.bavail * s.bsize;
};

/** Files under MEDIA_DIR, scratch files included (a partial upload would show here). */
function mediaFiles(): string[] {
  return (fs.readdirSync(mediaDir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(mediaDir, f), { throwIfNoEntry: false })?.isFile());
}

let noise: Buffer | undefined;
/** A JPEG of noise (so it does not compress), larger than the 4 MB margin: about 5 MB. */
async function noiseJpeg(): Promise<Buffer> {
  noise ??= await sharp({ create: { width: 2500, height: 2500, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
  expect(noise.length).toBeGreaterThan(4 * MB);
  return noise;
}

/** Fills the tmpfs until `left` bytes remain free. */
function fillLeaving(left: number) {
  fs.rmSync(filler, { force: true });
  const size = free() - left;
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(MB, 1);
  try {
    for (let written = 0; written < size; written += chunk.length) fs.writeSync(fd, chunk, 0, Math.min(chunk.length, size - written));
  } finally {
    fs.closeSync(fd);
  }
}

/** A multipart upload in HTTP chunks, so the server learns its size only as it arrives. */
function chunkedUpload(file: Buffer | number): Promise<{ status: number; body: any }> {
  const boundary = `----studio${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nToo big\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL('/api/media', server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Transfer-Encoding': 'chunked',
        Origin: server.url,
        Cookie: admin.cookieHeader(),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    // The server may answer and close before the whole body is sent.
    req.on('error', (e) => (/EPIPE|ECONNRESET/.test(String(e)) ? undefined : reject(e)));
    (async () => {
      req.write(head);
      // A number: JPEG magic (accepted by type) and that many random bytes.
      const data = typeof file === 'number' ? Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(file - 4)]) : file;
      for (let sent = 0; sent < data.length && !req.destroyed; sent += 256 * 1024) {
        if (!req.write(data.subarray(sent, sent + 256 * 1024))) await new Promise((r) => req.once('drain', r));
      }
      req.end(tail);
    })().catch(() => {});
  });
}

async function mediaRows(): Promise<number> {
  return Number((await server.sql.execute('SELECT count(*) AS n FROM media')).rows[0]!.n);
}

type Sent = Promise<{ status: number; body: any }>;
test.each<[string, () => Promise<number>, RegExp | null, () => Sent]>([
  // 16 MB declared on a 20 MB disk with a 4 MB margin: refused from Content-Length alone.
  ['declared too large (Content-Length + MIN_FREE_BYTES)', async () => 0, null, () => upload(admin, { title: 'Big' }, { data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(16 * MB)]), name: 'big.jpg', type: 'image/jpeg' })],
  // 6 MB free, 10 MB sent chunked: passes the check (no size, 4 MB margin fits) and hits ENOSPC.
  ['the disk fills up while it is written (ENOSPC)', async () => 6 * MB, /Upload refused, disk full: .*ENOSPC/, () => chunkedUpload(10 * MB)],
  // The original fits, its thumbnails do not: sharp's write fails, which is no damaged file.
  ['the disk fills up while thumbnails are made', async () => (await noiseJpeg()).length + 256 * 1024, /Upload refused, disk full: [^\n]*write error/, async () => chunkedUpload(await noiseJpeg())],
])('%s: 507, no row, no partial file, and the app keeps answering', async (_label, room, log, send) => {
  const left = await room();
  if (left) fillLeaving(left);
  const rowsBefore = await mediaRows();
  const filesBefore = mediaFiles();
  const freeBefore = free();
  const logBefore = server.output().length;

  const r = await send();
  expect(r.status, JSON.stringify(r.body)).toBe(507);
  expect(r.body).toEqual({ message: MESSAGE });
  // Which path answered: the up-front check reads nothing, so only a real ENOSPC is logged.
  const logged = server.output().slice(logBefore);
  if (log) expect(logged).toMatch(log);
  else expect(logged).not.toMatch(/disk full/i);

  expect(await mediaRows()).toBe(rowsBefore);
  expect(mediaFiles()).toEqual(filesBefore);
  expect(fs.readdirSync(mediaDir).length).toBe(filesBefore.length); // no empty item folder either
  expect(free()).toBeGreaterThanOrEqual(freeBefore - 64 * 1024); // the partial file's space is back

  // Other requests are served as usual.
  expect((await admin.get('/api/media')).status).toBe(200);
  expect((await admin.get('/api/stats')).status).toBe(200);
  expect((await admin.get('/')).status).toBe(200);

  fs.rmSync(filler, { force: true });
}, 60_000);

test('uploads work again once space is freed', async () => {
  fillLeaving(3 * MB);
  const image = await sampleImage('jpeg', 640, 480);
  const refused = await upload(admin, { title: 'Waits for space' }, { data: image, name: 'a.jpg', type: 'image/jpeg' });
  expect(refused.status).toBe(507);
  fs.rmSync(filler);
  const r = await upload(admin, { title: 'Fits now' }, { data: image, name: 'a.jpg', type: 'image/jpeg' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect((await admin.get(r.body.url)).status).toBe(200);
  expect(fs.readdirSync(path.join(mediaDir, r.body.url.split('/')[2]))).toContain('original.jpg');
});

test('a resumable upload that would not fit is refused at creation: 507, no record, nothing staged', async () => {
  const uploadsBefore = Number((await server.sql.execute('SELECT count(*) AS n FROM uploads')).rows[0]!.n);
  const res = await fetch(new URL('/api/uploads', server.url), {
    method: 'POST',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(18 * MB), Origin: server.url, Cookie: admin.cookieHeader() },
  });
  expect(res.status).toBe(507);
  expect(await res.json()).toEqual({ message: MESSAGE });
  expect(Number((await server.sql.execute('SELECT count(*) AS n FROM uploads')).rows[0]!.n)).toBe(uploadsBefore);
  const staged = path.join(mediaDir, '.uploads');
  expect(fs.existsSync(staged) ? fs.readdirSync(staged) : []).toEqual([]);

  // One that fits is created as usual.
  const ok = await fetch(new URL('/api/uploads', server.url), {
    method: 'POST',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(MB), Origin: server.url, Cookie: admin.cookieHeader() },
  });
  expect(ok.status).toBe(201);
  await fetch(new URL(ok.headers.get('location')!, server.url), { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', Origin: server.url, Cookie: admin.cookieHeader() } });
});

test('MIN_FREE_BYTES is validated at start-up', async () => {
  await expect(startServer({ env: { MIN_FREE_BYTES: '-1' } })).rejects.toThrow(/MIN_FREE_BYTES/);
});

test('a backup onto another file system copies the media (no hard links across devices), then only what is new', async () => {
  const { spawnSync } = await import('node:child_process');
  const { ROOT } = await import('../helpers/server.ts');
  const to = path.join(tmp, 'backup'); // on the test's /tmp, not on the tmpfs
  const backup = () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/backup.mjs'), '--to', to], {
      env: { ...process.env, DATABASE_URL: server.databaseUrl, MEDIA_DIR: mediaDir },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.match(/^STUDIO_BACKUP (.*)$/m)![1]!);
  };
  const files = mediaFiles().length;
  expect(files).toBeGreaterThan(0);
  const first = backup();
  expect(first).toMatchObject({ files, newFiles: files, copied: files, linked: 0 });
  expect(backup()).toMatchObject({ files, newFiles: 0, copied: 0 });
});

/** Polls the live state until the item is ready or failed. */
async function settled(id: number) {
  const until = Date.now() + 60_000;
  for (;;) {
    const r = await admin.json('GET', `/api/media/${id}/processing`);
    expect(r.status).toBe(200);
    if (r.body.processingStatus === 'ready' || r.body.processingStatus === 'failed') return r.body;
    if (Date.now() > until) throw new Error(`item ${id} still ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 150));
  }
}

test('a transcode whose expected outputs would not fit does not start: the item says why, and Retry converts it once space is freed', async () => {
  // Start from an empty library, so the tmpfs holds only what this test puts there.
  const items = await admin.json('GET', '/api/media');
  for (const item of items.body as { id: number }[]) expect((await admin.delete(`/api/media/${item.id}`)).status).toBe(200);
  // A 12 s MPEG-4 AVI without sound (transcoded at its own 320x180, the 720p rung): 12 s at 6 Mbit/s is 9 MB,
  // plus 2 MB for the sprite, expected; with the 4 MB margin it needs 15 MB. Filling the disk
  // to 10 MB free leaves a wide gap either side: the upload (well under 1 MB, plus the
  // margin) fits, the conversion does not, and once the filler goes (about 19 MB free) it does.
  const avi = path.join(tmp, 'twelve-seconds.avi');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=10:duration=12', '-c:v', 'mpeg4', '-q:v', '10', avi]);
  fillLeaving(10 * MB);
  const freeAtUpload = free();
  const up = await upload(admin, { title: 'Waits for disk space' }, { data: fs.readFileSync(avi), name: 'twelve-seconds.avi' }).catch((e) => {
    throw new Error(`upload of ${fs.statSync(avi).size} bytes failed with ${freeAtUpload} bytes free: ${e}`);
  });
  expect(up.status, JSON.stringify(up.body)).toBe(201);

  const refused = await settled(up.body.id);
  expect(refused.processingStatus).toBe('failed');
  expect(refused.processingError).toMatch(/^Not enough disk space to convert this video \(it needs about 11 MB free\)/);
  expect(server.output()).toMatch(new RegExp(`video ${up.body.id}: not enough disk space to convert`));
  // Nothing was started, so no scratch or rendition file is left in the item's folder.
  expect(fs.readdirSync(path.join(mediaDir, up.body.url.split('/')[2])).filter((f: string) => /720p|1080p|sprite|\.job/.test(f))).toEqual([]);

  fs.rmSync(filler);
  const again = await admin.json('POST', `/api/media/${up.body.id}/reprocess`);
  expect(again.status, JSON.stringify(again.body)).toBe(202);
  const ready = await settled(up.body.id);
  expect(ready.processingStatus, ready.processingError ?? '').toBe('ready');
  expect(ready.renditions.map((r: { label: string }) => r.label)).toEqual(['180p']);
}, 90_000);
