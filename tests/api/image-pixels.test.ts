// Decompression bombs (issue 31, item 12): a PNG of 16,383 x 16,383 pixels is a 1 MB file
// but 268 megapixels decoded. Refused with 415 from its header, before any decoding, as an
// upload, a new version and a video's poster; the web process neither stalls nor grows.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import sharp from 'sharp';
import { startServer, type TestServer } from '../helpers/server.ts';
import type { Session } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { mediaFolders, sampleImage, sampleVideo, upload, uploadImage } from '../helpers/media-uploads.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';

let server: TestServer;
let admin: Session;
let bomb: Buffer;

beforeAll(async () => {
  server = await startServer({ env: { WORKER: 'off' } });
  admin = await adminSession(server.url);
  // One colour compresses to about 1 MB however many pixels it has.
  bomb = await sharp({ create: { width: 16383, height: 16383, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
}, 120_000);
afterAll(() => server?.stop());

/** Resident memory of the web process, in MB. */
function rssMb(): number {
  const status = fs.readFileSync(`/proc/${server.proc.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const count = async () => Number((await server.sql.execute('SELECT count(*) AS n FROM media')).rows[0]!.n);

describe('images above the pixel limit', () => {
  test('a 16,383² PNG upload: 415 at once, nothing stored, the process no bigger and still answering', { timeout: 60_000 }, async () => {
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    await uploadImage(admin); // the image pipeline is warm, so what follows measures the bomb alone
    const rows = await count();
    const folders = mediaFolders(server.mediaDir).length;
    const before = rssMb();
    const started = Date.now();
    const r = await upload(admin, { title: 'Bomb' }, { data: bomb, name: 'bomb.png', type: 'image/png' });
    const ms = Date.now() - started;
    expect(r.status, JSON.stringify(r.body)).toBe(415);
    expect(r.body.message).toBe('The image is too large: 16,383 × 16,383 pixels (268.4 megapixels); the limit is 100 megapixels.');
    expect(ms).toBeLessThan(3000);
    expect(rssMb() - before).toBeLessThan(100);
    expect(await count()).toBe(rows);
    expect(mediaFolders(server.mediaDir).length).toBe(folders);
    // Still answering, and still taking normal images.
    expect((await admin.json('GET', '/api/media')).status).toBe(200);
    await uploadImage(admin);
  });

  test('the same as a resumable upload, a new version and a video poster: 415 with the same message', { timeout: 60_000 }, async () => {
    const uploaded = async () => {
      const { res, id } = await createUpload(admin, bomb.length, { filename: 'bomb.png' });
      expect(res.status).toBe(201);
      expect((await patchUpload(admin, id!, 0, bomb)).status).toBe(204);
      return id!;
    };
    const item = await admin.json('POST', '/api/media', { uploadId: await uploaded(), title: 'Bomb' });
    expect(item.status).toBe(415);
    expect(item.body.message).toMatch(/^The image is too large: 16,383 × 16,383 pixels/);

    const img = await uploadImage(admin);
    const v = await admin.json('POST', `/api/media/${img.id}/versions`, { uploadId: await uploaded() });
    expect(v.status).toBe(415);
    expect(v.body.message).toMatch(/^The image is too large: 16,383 × 16,383 pixels/);

    const vid = await upload(admin, { title: 'Clip' }, { data: sampleVideo('mp4'), name: 'clip.mp4' }, { data: bomb, name: 'poster.png', type: 'image/png' });
    expect(vid.status).toBe(415);
    expect(vid.body.message).toMatch(/^The image is too large: 16,383 × 16,383 pixels/);
  });

  test('an image at the limit is taken (10,000 × 10,000)', { timeout: 120_000 }, async () => {
    const big = await sharp({ create: { width: 10000, height: 10000, channels: 3, background: '#246' } }).png({ compressionLevel: 9 }).toBuffer();
    const r = await upload(admin, { title: 'At the limit' }, { data: big, name: 'big.png', type: 'image/png' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect([r.body.width, r.body.height]).toEqual([10000, 10000]);
    expect(r.body.webpUrl).toMatch(/full\.webp$/);
  });

  test('small images are unaffected', async () => {
    const r = await upload(admin, { title: 'Small' }, { data: await sampleImage('png', 300, 200), name: 's.png' });
    expect(r.status).toBe(201);
  });
});

// Issue 40: an animated image is decoded frame by frame, so the limit is on all its frames
// together. A server with a 1-megapixel limit takes 8 frames of 400 × 400 (160,000 pixels
// each, 1.28 megapixels in all) as the bomb: under the limit per frame, over it in total.
describe('animated images: the limit counts every frame', () => {
  let small: TestServer;
  let staff: Session;
  beforeAll(async () => {
    small = await startServer({ env: { WORKER: 'off', IMAGE_MAX_PIXELS: '1000000' } });
    staff = await adminSession(small.url);
  }, 120_000);
  afterAll(() => small?.stop());

  /** `frames` frames of `side` × `side`, each a different grey. */
  const animation = (format: 'gif' | 'webp', side: number, frames: number) => {
    const raw = Buffer.alloc(side * side * frames * 3);
    for (let f = 0; f < frames; f++) raw.fill(f * 30, f * side * side * 3, (f + 1) * side * side * 3);
    return sharp(raw, { raw: { width: side, height: side * frames, channels: 3, pageHeight: side } })[format]({ loop: 0, delay: 100 }).toBuffer();
  };

  test.each(['gif', 'webp'] as const)('an animated %s over the limit in total, under it per frame: 415 naming the frames', async (format) => {
    const data = await animation(format, 400, 8);
    const meta = await sharp(data, { animated: true }).metadata();
    expect([meta.pages, meta.pageHeight, meta.width]).toEqual([8, 400, 400]);
    const rows = (await small.sql.execute('SELECT count(*) AS n FROM media')).rows[0]!.n;
    const r = await upload(staff, { title: 'Flipbook' }, { data, name: `flipbook.${format}`, type: `image/${format}` });
    expect(r.status, JSON.stringify(r.body)).toBe(415);
    expect(r.body.message).toBe('The image is too large: 400 × 400 pixels × 8 frames (1.3 megapixels); the limit is 1 megapixels.');
    expect((await small.sql.execute('SELECT count(*) AS n FROM media')).rows[0]!.n).toBe(rows);
  });

  test.each(['gif', 'webp'] as const)('an animated %s under the limit in total is taken, every frame kept', async (format) => {
    const r = await upload(staff, { title: 'Short flipbook' }, { data: await animation(format, 400, 6), name: `short.${format}`, type: `image/${format}` });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect([r.body.width, r.body.height]).toEqual([400, 400]);
    const full = await staff.get(new URL(r.body.webpUrl, small.url).pathname);
    expect(full.status).toBe(200);
    const meta = await sharp(Buffer.from(await full.arrayBuffer()), { animated: true }).metadata();
    expect([meta.pages, meta.pageHeight]).toEqual([6, 400]);
  });
});
