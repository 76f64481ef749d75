// Stills proofing (issue 42), watermarked gallery links: such a link shows and gives only its own
// marked copy of each image (made by the job queue, at most 2,048 px), never a clean gallery size
// nor more than that copy by any address or ZIP; images added later get their copy too; a clean
// link to the same gallery and the gallery's client keep the clean sizes; switching the
// watermark off on /admin/share-links brings the clean sizes back and ends the marked name.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import sharp from 'sharp';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { createGallery, enterLink, galleryLink, uploadShots, whenSizesReady } from '../helpers/proofing.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let admin: Session;
let marked: { id: number; token: string };
let clean: { id: number; token: string };
let guest: Session;
let g: any;

const SHOTS = [
  { name: 'WM_0001.jpg', taken: '2026:06:01 12:00:01', width: 3000, height: 2000 },
  { name: 'WM_0002.jpg', taken: '2026:06:01 12:00:02', width: 1200, height: 1800 },
];

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const ids = await uploadShots(admin, SHOTS);
  g = await createGallery(admin, { title: 'Proofs', mediaIds: ids });
  g = await whenSizesReady(admin, g.id);
  // The package would allow originals: the watermark must still win.
  expect((await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadTier: 'original' })).status).toBe(200);
  marked = await galleryLink(admin, g.id, { name: 'Marked proofs', watermark: true, watermarkText: 'PROOF ONLY', watermarkPosition: 'top-left', watermarkOpacity: 100 });
  clean = await galleryLink(admin, g.id, { name: 'Clean' });
  guest = await enterLink(server.url, marked.token, 'Guest');
}, 180_000);
afterAll(() => server?.stop());

const api = (token: string) => `/api/share/${token}/gallery`;
const files = (token: string, imageId: number) => `/s/${token}/g/${imageId}`;
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
/** The link's answer once every image's marked copy is made. */
const whenMarked = (s: Session, token: string) =>
  until(`the marked copies of ${token}`, async () => {
    const r = await s.json('GET', api(token));
    return r.status === 200 && r.body.images.every((i: { ready: boolean }) => i.ready) ? r.body : null;
  });

/**
 * The share of pixels inside a box (fractions of the size) where two images differ by more than
 * compression ever does (a channel off by over 96): where drawn text is, and only there.
 */
async function changedShare(a: Buffer, b: Buffer, box: { left: number; top: number; width: number; height: number }) {
  const { width, height } = await sharp(a).metadata();
  const region = { left: Math.round(box.left * width!), top: Math.round(box.top * height!), width: Math.round(box.width * width!), height: Math.round(box.height * height!) };
  const [ra, rb] = await Promise.all([a, b].map((x) => sharp(x).resize(width!, height!).extract(region).removeAlpha().raw().toBuffer()));
  let changed = 0;
  for (let i = 0; i < ra!.length; i += 3) {
    if (Math.max(Math.abs(ra![i]! - rb![i]!), Math.abs(ra![i + 1]! - rb![i + 1]!), Math.abs(ra![i + 2]! - rb![i + 2]!)) > 96) changed++;
  }
  return changed / (ra!.length / 3);
}

describe('a watermarked gallery link', () => {
  test('says so, and offers only the marked copy as web size 2,048 px however much the package allows', async () => {
    const view = await whenMarked(guest, marked.token);
    expect(view.watermarked).toBe(true);
    for (const img of view.images) expect(img.sizes).toEqual(['web2048']);
    const other = await enterLink(server.url, clean.token, 'Other');
    const cleanView = (await other.json('GET', api(clean.token))).body;
    expect(cleanView.watermarked).toBe(false);
    expect(cleanView.images[0].sizes).toEqual(['original', 'highres', 'web2048', 'web1024']);
  });

  test('shows the marked copy with the text drawn where asked, and no clean size by any name', async () => {
    const view = await whenMarked(guest, marked.token);
    const img = view.images.find((i: any) => i.name === 'WM_0001.jpg');
    const res = await guest.get(`${files(marked.token, img.id)}/marked.jpg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const copy = await bytes(res);
    const meta = await sharp(copy).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 1365]);
    for (const file of ['g480.webp', 'g960.webp', 'g480.avif', 'g2048.webp', 'thumb.webp', 'original.jpg', 'full.webp']) {
      expect((await guest.get(`${files(marked.token, img.id)}/${file}`)).status, file).toBe(404);
    }
    // The clean 2,048 px size, through the clean link: the two differ where the text is.
    const other = await enterLink(server.url, clean.token, 'Other');
    const cleanImg = (await other.json('GET', api(clean.token))).body.images.find((i: any) => i.name === 'WM_0001.jpg');
    const plain = await bytes(await other.get(`${files(clean.token, cleanImg.id)}/g2048.webp`));
    expect((await other.get(`${files(clean.token, cleanImg.id)}/marked.jpg`)).status).toBe(404);
    const where = await changedShare(copy, plain, { left: 0, top: 0, width: 0.5, height: 0.15 });
    const elsewhere = await changedShare(copy, plain, { left: 0.45, top: 0.5, width: 0.5, height: 0.45 });
    expect(where).toBeGreaterThan(0.02);
    expect(elsewhere).toBeLessThan(0.001);
  });

  test('downloads and ZIPs give the marked copy only; larger sizes are refused', async () => {
    const view = await whenMarked(guest, marked.token);
    const img = view.images[0];
    const copy = await bytes(await guest.get(`${files(marked.token, img.id)}/marked.jpg`));
    for (const size of ['web1024', 'highres', 'original']) {
      const r = await guest.get(`${files(marked.token, img.id)}/download?size=${size}`);
      expect(r.status, size).toBe(403);
      expect((await guest.get(`/s/${marked.token}/g/zip?size=${size}`)).status, `zip ${size}`).toBe(403);
    }
    const dl = await guest.get(`${files(marked.token, img.id)}/download?size=web2048`);
    expect(dl.status).toBe(200);
    expect((await bytes(dl)).equals(copy)).toBe(true);

    const zipRes = await guest.get(`/s/${marked.token}/g/zip?size=web2048`);
    expect(zipRes.status).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proof-wm-'));
    const file = path.join(dir, 'a.zip');
    fs.writeFileSync(file, await bytes(zipRes));
    execFileSync('unzip', ['-tq', file]);
    for (const i of view.images) {
      const entry = execFileSync('unzip', ['-p', file, i.name], { maxBuffer: 1 << 26 });
      const own = await bytes(await guest.get(`${files(marked.token, i.id)}/marked.jpg`));
      expect(entry.equals(own), i.name).toBe(true);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('an image added to the gallery later gets its marked copy', async () => {
    const [id] = await uploadShots(admin, [{ name: 'WM_0003.jpg', width: 1000, height: 800 }]);
    expect((await admin.json('POST', `/api/galleries/${g.id}/images`, { mediaIds: [id] })).status).toBe(201);
    const view = await whenMarked(guest, marked.token);
    const img = view.images.find((i: any) => i.name === 'WM_0003.jpg');
    expect(img).toBeTruthy();
    const res = await guest.get(`${files(marked.token, img.id)}/marked.jpg`);
    expect(res.status).toBe(200);
    expect((await sharp(await bytes(res)).metadata()).width).toBe(1000);
  });

  test('switched off on the share links page: clean sizes again, the marked name ends', async () => {
    const view = await whenMarked(guest, marked.token);
    const img = view.images[0];
    expect((await admin.json('PATCH', `/api/share-links/${marked.id}`, { watermark: false })).status).toBe(200);
    const after = (await guest.json('GET', api(marked.token))).body;
    expect(after.watermarked).toBe(false);
    expect(after.images.find((i: any) => i.id === img.id).sizes).toContain('original');
    expect((await guest.get(`${files(marked.token, img.id)}/marked.jpg`)).status).toBe(404);
    expect((await guest.get(`${files(marked.token, img.id)}/g480.webp`)).status).toBe(200);
  });
});
