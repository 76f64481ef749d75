// Media kept in an S3 bucket (issue 18) on a real Ceph radosgw: uploads (multipart and
// resumable), versions and conversions land in the bucket and nowhere else; the app checks
// access and answers with a short-lived presigned redirect, or streams (proxy mode) with
// ranges and conditional requests; deleting removes every object; a presigned URL lives 300 s
// unless S3_URL_TTL_SECONDS says otherwise (10–300, else no start); a missing bucket stops the
// start with the reason; `npm run storage:migrate` copies a local library and verifies it.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startServer, ROOT, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { mediaFolders, sampleImage, sampleVideo, upload, uploadImage } from '../helpers/media-uploads.ts';
import { createUpload, headOffset, partialPatch, patchUpload } from '../helpers/tus.ts';
import { newBucket, objectKeys, s3Client } from '../helpers/s3.ts';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { parseMaster, parseMedia } from '../helpers/hls.ts';
import { until } from '../helpers/until.ts';

const run = promisify(execFile);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const keyOf = (url: string) => url.split('/')[2]!;

/** Follows one redirect by hand (the session does not), as a browser would, without cookies. */
async function follow(res: Response, headers: Record<string, string> = {}) {
  expect(res.status).toBe(302);
  return fetch(res.headers.get('location')!, { headers });
}

describe('redirect delivery (the default)', () => {
  let server: TestServer;
  let bucket: string;
  let admin: Session;
  const anon = () => new Session(server.url);

  beforeAll(async () => {
    const b = await newBucket({ S3_URL_TTL_SECONDS: '10' });
    bucket = b.bucket;
    server = await startServer({ env: b.env });
    admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  });
  afterAll(() => server?.stop());

  test('an upload is stored in the bucket, not on the local disk', async () => {
    const item = await uploadImage(admin, { title: 'In the bucket' });
    const key = keyOf(item.url);
    expect(await objectKeys(bucket, `${key}/`)).toEqual([`${key}/full.webp`, `${key}/original.jpg`, `${key}/thumb.jpg`, `${key}/thumb.webp`]);
    expect(mediaFolders(server.mediaDir).filter((f) => f === key)).toEqual([]);
  });

  test('a private file: 404 to the public, a 302 to a presigned URL of at most the TTL for staff; ranges and downloads work', async () => {
    const data = await sampleImage('jpeg', 640, 480, '#123456');
    const r = await upload(admin, { title: 'Private still' }, { data, name: 'private still.jpg', type: 'image/jpeg' });
    const url = r.body.url as string;
    expect((await anon().get(url)).status).toBe(404);

    const res = await admin.get(url);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(inject('radosgw').S3_ENDPOINT);
    expect(Number(location.searchParams.get('X-Amz-Expires'))).toBe(10);
    const body = new Uint8Array(await (await fetch(location)).arrayBuffer());
    expect(sha(body)).toBe(sha(data));

    const part = await fetch(location, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${data.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(data.subarray(100, 200)))).toBe(true);

    const dl = await follow(await admin.get(`${url}?download=1`));
    expect(dl.headers.get('content-disposition')).toMatch(/^attachment; filename="private still\.jpg"/);
    expect(dl.headers.get('content-type')).toBe('image/jpeg');

    // The URL dies with its TTL: a presigned URL handed out is not a permanent key.
    await new Promise((r2) => setTimeout(r2, 11_000));
    expect((await fetch(location)).status).toBe(403);
  });

  test('a public file redirects anyone, cacheable for a minute; a missing file is 404', async () => {
    const item = await uploadImage(admin, { title: 'On the site', isFeatured: 'true' });
    const res = await anon().get(item.url);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect((await follow(res)).status).toBe(200);
    expect((await anon().get(item.url.replace('original.jpg', 'poster.jpg'))).status).toBe(404);
  });

  test('pages allow media from the bucket in their CSP', async () => {
    const csp = (await anon().get('/')).headers.get('content-security-policy')!;
    expect(csp).toMatch(new RegExp(`media-src [^;]*${inject('radosgw').S3_ENDPOINT.replace(/[./:]/g, '\\$&')}`));
    expect(csp).toMatch(new RegExp(`img-src [^;]*${inject('radosgw').S3_ENDPOINT.replace(/[./:]/g, '\\$&')}`));
  });

  test('a resumable upload ends in the bucket', async () => {
    const data = await sampleImage('png', 300, 200);
    const { id } = await createUpload(admin, data.length, { filename: 'resumed.png' });
    expect((await patchUpload(admin, id!, 0, data)).status).toBe(204);
    const done = await admin.json('POST', '/api/media', { uploadId: id, title: 'Resumed into S3' });
    expect(done.status).toBe(201);
    const key = keyOf(done.body.url);
    expect(await objectKeys(bucket, `${key}/`)).toContain(`${key}/original.png`);
  });

  test('an unfinished resumable upload waits in the bucket; a cut PATCH resumes from HEAD and finishes byte-identical, leaving nothing staged', async () => {
    // Larger than one S3 part (5 MB minimum), so the upload is a real multipart upload.
    const data = new Uint8Array(Buffer.concat([await sampleImage('jpeg', 64, 64), randomBytes(12 * 1024 * 1024)]));
    const { id } = await createUpload(admin, data.length, { filename: 'big.jpg' });
    const first = 6 * 1024 * 1024;
    expect((await patchUpload(admin, id!, 0, data.subarray(0, first))).status).toBe(204);
    expect(await objectKeys(bucket, id!)).toContain(`${id}.info`);
    expect(fs.existsSync(path.join(server.mediaDir, '.uploads', id!))).toBe(false); // nothing on the local disk
    await partialPatch(admin, id!, first, data.subarray(first), 3 * 1024 * 1024, async (req) => {
      await new Promise((r) => setTimeout(r, 300));
      req.destroy();
    });
    const head = await headOffset(admin, id!);
    expect(head.res.status).toBe(200);
    expect(head.offset).toBeGreaterThanOrEqual(first);
    expect(head.offset).toBeLessThanOrEqual(first + 3 * 1024 * 1024);
    expect((await patchUpload(admin, id!, head.offset, data.subarray(head.offset))).status).toBe(204);
    const done = await admin.json('POST', '/api/media', { uploadId: id, title: 'Cut and resumed' });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const key = keyOf(done.body.url);
    const stored = await s3Client().send(new GetObjectCommand({ Bucket: bucket, Key: `${key}/original.jpg` }));
    expect(sha(await stored.Body!.transformToByteArray())).toBe(sha(data));
    expect((await objectKeys(bucket, id!)).length).toBe(0);
  });

  test('a video is converted from the bucket into the bucket; the worker leaves no local copy', { timeout: 90_000 }, async () => {
    const r = await upload(admin, { title: 'Clip in S3' }, { data: sampleVideo('avi'), name: 'clip.avi', type: 'video/x-msvideo' });
    expect(r.status).toBe(201);
    const key = keyOf(r.body.url);
    let item: any;
    await until('converted', async () => {
      item = (await admin.json('GET', '/api/media')).body.find((m: any) => m.id === r.body.id);
      return item.processingStatus === 'ready' || item.processingStatus === 'failed';
    }, 80_000);
    expect(item.processingStatus).toBe('ready');
    const keys = await objectKeys(bucket, `${key}/`);
    expect(keys).toEqual(expect.arrayContaining([`${key}/720p.mp4`, `${key}/sprite.jpg`, `${key}/sprite.vtt`, `${key}/original.avi`]));
    expect(fs.existsSync(path.join(server.mediaDir, key))).toBe(false);
    // The seek-bar map is fetched by script: served by the app itself, never redirected.
    const vtt = await admin.get(item.spriteUrl);
    expect(vtt.status).toBe(200);
    expect(await vtt.text()).toMatch(/^WEBVTT/);
    const play = await follow(await admin.get(item.playbackUrl), { Range: 'bytes=0-1023' });
    expect(play.status).toBe(206);
    // Playlists are written to the bucket too, but redirect mode offers no stream: hls.js would
    // fetch byte ranges by script from the bucket's origin (issue 33; the players use the files).
    expect(keys).toEqual(expect.arrayContaining([`${key}/master.m3u8`, `${key}/720p.m3u8`]));
    expect(item.streamUrl).toBeNull();
    expect((await admin.json('GET', `/api/media/${r.body.id}/processing`)).body.streamUrl).toBeNull();
  });

  test('a new version gets its own prefix; deleting the item removes every object of every version', async () => {
    const item = await uploadImage(admin, { title: 'Two cuts' });
    const data = await sampleImage('jpeg', 500, 300, '#abcdef');
    const { id } = await createUpload(admin, data.length, { filename: 'cut2.jpg' });
    await patchUpload(admin, id!, 0, data);
    const v2 = await admin.json('POST', `/api/media/${item.id}/versions`, { uploadId: id });
    expect(v2.status).toBe(201);
    const k1 = keyOf(item.url);
    const k2 = keyOf(v2.body.version.url);
    expect((await objectKeys(bucket, `${k2}/`)).length).toBeGreaterThan(0);
    expect((await admin.request('DELETE', `/api/media/${item.id}`)).status).toBe(200);
    expect(await objectKeys(bucket, `${k1}/`)).toEqual([]);
    expect(await objectKeys(bucket, `${k2}/`)).toEqual([]);
  });
});

describe('proxy delivery', () => {
  let server: TestServer;
  let admin: Session;

  beforeAll(async () => {
    server = await startServer({ env: (await newBucket({ S3_DELIVERY: 'proxy' })).env });
    admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  });
  afterAll(() => server?.stop());

  test('streams with ranges, HEAD, conditional 304 and download names; private stays private', async () => {
    const data = await sampleImage('jpeg', 640, 480, '#654321');
    const r = await upload(admin, { title: 'Proxied' }, { data, name: 'proxied.jpg', type: 'image/jpeg' });
    const url = r.body.url as string;
    expect((await new Session(server.url).get(url)).status).toBe(404);

    const whole = await admin.get(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('cache-control')).toBe('private, no-store');
    expect(sha(new Uint8Array(await whole.arrayBuffer()))).toBe(sha(data));
    const etag = whole.headers.get('etag')!;

    const part = await admin.get(url, { Range: 'bytes=-50' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes ${data.length - 50}-${data.length - 1}/${data.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(data.subarray(data.length - 50)))).toBe(true);

    expect((await admin.get(url, { 'If-None-Match': etag })).status).toBe(304);
    const head = await admin.request('HEAD', url);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(data.length));
    const dl = await admin.get(`${url}?download=1`);
    expect(dl.headers.get('content-disposition')).toMatch(/^attachment; filename="proxied\.jpg"/);
    expect((await admin.get(url, { Range: `bytes=${data.length + 10}-` })).status).toBe(416);
  });

  test('a converted video streams: its playlists and the byte ranges they name come through the app (issue 33)', { timeout: 90_000 }, async () => {
    const r = await upload(admin, { title: 'Streamed from S3' }, { data: sampleVideo('avi'), name: 'clip.avi', type: 'video/x-msvideo' });
    expect(r.status).toBe(201);
    const item = await until('converted', async () => {
      const live = (await admin.json('GET', `/api/media/${r.body.id}/processing`)).body;
      return live.processingStatus === 'ready' || live.processingStatus === 'failed' ? live : null;
    }, 80_000);
    expect(item.streamUrl).toMatch(/\/master\.m3u8\?v=\d+$/);
    expect((await new Session(server.url).get(item.streamUrl)).status).toBe(404);
    const master = await admin.get(item.streamUrl);
    expect(master.status).toBe(200);
    const media = parseMaster(await master.text())[0]!;
    const mediaUrl = new URL(media.uri, new URL(item.streamUrl, server.url));
    const pl = parseMedia(await (await admin.get(mediaUrl.pathname + mediaUrl.search)).text());
    const seg = pl.segments[0]!;
    const segUrl = new URL(seg.uri, mediaUrl);
    const part = await admin.get(segUrl.pathname + segUrl.search, { Range: `bytes=${seg.offset}-${seg.offset + seg.length - 1}` });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1', 4, 8)).toBe('moof');
  });
});

describe('start-up and moving a library', () => {
  test('`npm run radosgw -- start DIR` prints every S3_* line the app needs: with them alone it starts and stores in that bucket', async () => {
    // The run's radosgw (tests/setup/radosgw.ts) is started by that script; these are its lines.
    const printed = inject('radosgw');
    expect(Object.keys(printed).sort()).toEqual(['S3_ACCESS_KEY_ID', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_REGION', 'S3_SECRET_ACCESS_KEY']);
    const server = await startServer({ env: { ...printed, MEDIA_STORAGE: 's3', WORKER: 'off' } });
    try {
      expect(server.output()).toContain(`Media files in S3 bucket "${printed.S3_BUCKET}"`);
      const item = await uploadImage(await staffSession(server.url, ADMIN.username, ADMIN.password));
      expect(await objectKeys(printed.S3_BUCKET, keyOf(item.url))).toContain(`${keyOf(item.url)}/original.jpg`);
    } finally {
      await server.stop();
    }
  });

  test('a missing bucket stops the start with the reason', async () => {
    const env = { ...(await newBucket()).env, S3_BUCKET: 'no-such-bucket-here' };
    await expect(startServer({ env })).rejects.toThrow(/cannot write to bucket "no-such-bucket-here".*does not exist/);
  });

  test('without S3_URL_TTL_SECONDS a presigned URL lives 300 s', async () => {
    // The other servers here set 10 s, so that a URL can be seen to die; this one sets nothing.
    expect(process.env.S3_URL_TTL_SECONDS).toBeUndefined();
    const { env } = await newBucket();
    expect(env).not.toHaveProperty('S3_URL_TTL_SECONDS');
    const server = await startServer({ env });
    try {
      const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
      const item = await uploadImage(admin, { title: 'Default life' });
      const res = await admin.get(item.url);
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
      expect((await fetch(location)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  test.each(['301', '3600', '9'])('S3_URL_TTL_SECONDS=%s (outside 10–300) stops the start, naming the variable', async (ttl) => {
    const { env } = await newBucket({ S3_URL_TTL_SECONDS: ttl });
    const limit = Number(ttl) > 300 ? '300' : '10';
    const started = await startServer({ env }).then(
      async (server) => (await server.stop(), new Error('the server started')),
      (e: Error) => e,
    );
    expect(started.message).toMatch(new RegExp(`Invalid environment:\\s+S3_URL_TTL_SECONDS: [^\\n]*${limit}`));
  });

  test('storage:migrate copies and verifies a local library, changes nothing, and can run again; then the app serves it from S3', { timeout: 90_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-migrate-'));
    // The script reads the library's database file, so the servers use that file (even where
    // this project gives each folder a sqld).
    const databaseUrl = `file:${path.join(dir, 'studio.db')}`;
    let local: TestServer | null = await startServer({ dir, databaseUrl, env: { WORKER: 'off', MEDIA_STORAGE: 'local' } });
    try {
      const admin = await staffSession(local.url, ADMIN.username, ADMIN.password);
      const image = await uploadImage(admin, { title: 'Old still', isFeatured: 'true' });
      const video = await upload(admin, { title: 'Old clip' }, { data: sampleVideo('mp4'), name: 'old.mp4', type: 'video/mp4' });
      expect(video.status).toBe(201);
      const data = await sampleImage('webp', 320, 200);
      const { id } = await createUpload(admin, data.length, { filename: 'v2.webp' });
      await patchUpload(admin, id!, 0, data);
      expect((await admin.json('POST', `/api/media/${image.id}/versions`, { uploadId: id })).status).toBe(201);
      const originalBytes = new Uint8Array(await (await admin.get(video.body.url)).arrayBuffer());
      const localFiles = mediaFolders(local.mediaDir)
        .filter((f) => /^[a-f0-9]{32}$/.test(f))
        .flatMap((f) => fs.readdirSync(path.join(local!.mediaDir, f)).map((n) => `${f}/${n}`))
        .sort();
      await local.stop();
      local = null;

      const { bucket, env } = await newBucket();
      const migrate = () =>
        run(process.execPath, [path.join(ROOT, 'scripts/storage-migrate.mjs')], {
          cwd: ROOT,
          env: { ...process.env, ...env, MEDIA_STORAGE: 'local', DATABASE_URL: databaseUrl, MEDIA_DIR: path.join(dir, 'media') },
        });
      const first = await migrate();
      expect(first.stdout).toContain(`${localFiles.length} files: ${localFiles.length} copied and verified`);
      expect(first.stdout).toContain('Set MEDIA_STORAGE=s3');
      expect(await objectKeys(bucket)).toEqual(localFiles);
      // Nothing switched or removed: the local library is intact.
      expect(fs.existsSync(path.join(dir, 'media', localFiles[0]!))).toBe(true);
      const again = await migrate();
      expect(again.stdout).toContain(`0 copied and verified (0 bytes), ${localFiles.length} already in the bucket, 0 failed`);

      // The same database, now on S3 with an empty local folder.
      fs.rmSync(path.join(dir, 'media'), { recursive: true, force: true });
      local = await startServer({ dir, databaseUrl, env: { ...env, WORKER: 'off' } });
      const s3admin = await staffSession(local.url, ADMIN.username, ADMIN.password);
      const served = await follow(await s3admin.get(video.body.url));
      expect(sha(new Uint8Array(await served.arrayBuffer()))).toBe(sha(originalBytes));
      const list = (await s3admin.json('GET', '/api/media')).body as any[];
      expect((await follow(await new Session(local.url).get(list.find((m) => m.title === 'Old still').url))).status).toBe(200);
    } finally {
      await local?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('storage:migrate fails (exit 1) and says so when the bucket cannot be written', async () => {
    const { env } = await newBucket();
    const err = await run(process.execPath, [path.join(ROOT, 'scripts/storage-migrate.mjs')], {
      cwd: ROOT,
      env: { ...process.env, ...env, MEDIA_STORAGE: 'local', S3_SECRET_ACCESS_KEY: 'wrong-secret', DATABASE_URL: 'file::memory:' },
    }).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(/access denied: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
  });
});
