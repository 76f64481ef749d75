// RAW stills (issue 42): a DNG made here with exiftool around a JPEG preview (Debian's
// libimage-exiftool-perl, as the app uses) is accepted, kept byte for byte, shown upright from its
// embedded preview (the RAW's orientation applied), its EXIF kept and shown in a gallery, and
// downloaded as the RAW file; a plain TIFF and a RAW without a preview are refused with a reason.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, readStored, startServer, type TestServer } from '../helpers/server.ts';
import { clientSession, Session, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { upload } from '../helpers/media-uploads.ts';
import { createGallery, whenSizesReady } from '../helpers/proofing.ts';
import { scratchDir } from '../helpers/scratch.ts';

let server: TestServer;
let admin: Session;
const dir = scratchDir('raw-fixture-');

/** A DNG: a tiny TIFF with DNG tags, camera facts, orientation 6 (90° clockwise) and a 1200 x 800 preview, red left and blue right. */
async function makeDng(name: string, withPreview = true): Promise<Buffer> {
  const file = path.join(dir, name);
  await sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080' } }).tiff().toFile(file);
  const preview = path.join(dir, `${name}.jpg`);
  await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#0000ff' } })
    .composite([{ input: { create: { width: 600, height: 800, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
    .jpeg()
    .toFile(preview);
  const tags = ['-DNGVersion=1.4.0.0', '-Make=Canon', '-Model=Canon EOS R5', '-LensModel=RF24-70mm F2.8 L IS USM', '-DateTimeOriginal=2026:04:18 15:30:45', '-Orientation#=6'];
  execFileSync('exiftool', ['-q', '-overwrite_original', ...tags, file]);
  if (withPreview) execFileSync('exiftool', ['-q', '-overwrite_original', `-PreviewImage<=${preview}`, file]);
  return fs.readFileSync(file);
}

/** The colour at a point of an image, as "r,g,b" rounded to red or blue. */
async function colourAt(buf: Buffer, x: number, y: number): Promise<'red' | 'blue' | 'other'> {
  const { data, info } = await sharp(buf).raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(y * (info.height - 1)) * info.width + Math.floor(x * (info.width - 1))) * info.channels;
  const [r, , b] = [data[i]!, data[i + 1]!, data[i + 2]!];
  return r > 200 && b < 60 ? 'red' : b > 200 && r < 60 ? 'blue' : 'other';
}

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
}, 90_000);
afterAll(() => server?.stop());

test('a DNG is kept as uploaded, shown upright from its preview, and downloads as the RAW file', async () => {
  const dng = await makeDng('IMG_0042.dng');
  const r = await upload(admin, { title: 'Portrait' }, { data: dng, name: 'IMG_0042.dng', type: 'image/x-adobe-dng' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toMatchObject({ type: 'image', mimeType: 'image/x-adobe-dng', filename: 'IMG_0042.dng', width: 800, height: 1200 });
  const key = r.body.storageKey ?? r.body.url.split('/')[2];
  expect((await readStored(server, key, 'original.dng'))!.equals(dng)).toBe(true);
  // Turned 90° clockwise: the preview's left (red) is now the top.
  const thumb = Buffer.from(await (await admin.get(r.body.thumbnailWebpUrl ?? r.body.thumbnailUrl)).arrayBuffer());
  const meta = await sharp(thumb).metadata();
  expect(meta.height! > meta.width!).toBe(true);
  expect(await colourAt(thumb, 0.5, 0.1)).toBe('red');
  expect(await colourAt(thumb, 0.5, 0.9)).toBe('blue');
  const original = await admin.get(`${r.body.url}?download=1`);
  expect(original.headers.get('content-type')).toBe('image/x-adobe-dng');
  expect(original.headers.get('content-disposition')).toContain('filename="IMG_0042.dng"');
  expect(Buffer.from(await original.arrayBuffer()).equals(dng)).toBe(true);

  // In a gallery: EXIF read from the RAW, upright sizes, the original as the RAW file.
  const c = await createClientWithLogin(server);
  const client = await clientSession(server.url, c.username, c.password);
  const g = await createGallery(admin, { title: 'RAW proofs', mediaIds: [r.body.id] });
  const ready = await whenSizesReady(admin, g.id);
  expect(ready.images[0]).toMatchObject({ camera: 'Canon EOS R5', lens: 'RF24-70mm F2.8 L IS USM', capturedAt: '2026-04-18T14:30:45.000Z', raw: true, width: 800, height: 1200 });
  await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadTier: 'original' });
  await admin.json('PUT', `/api/galleries/${g.id}/clients`, { clientIds: [c.clientId] });
  const files = `/client/galleries/${g.id}/f/${ready.images[0].id}`;
  const web = Buffer.from(await (await client.get(`${files}/download?size=web1024`)).arrayBuffer());
  const webMeta = await sharp(web).metadata();
  expect([webMeta.width, webMeta.height]).toEqual([683, 1024]);
  expect(await colourAt(web, 0.5, 0.1)).toBe('red');
  const raw = await client.get(`${files}/download?size=original`);
  expect(raw.headers.get('content-disposition')).toContain('filename="IMG_0042.dng"');
  expect(Buffer.from(await raw.arrayBuffer()).equals(dng)).toBe(true);
  const display = Buffer.from(await (await client.get(`${files}/g960.avif`)).arrayBuffer());
  expect((await sharp(display).metadata()).height).toBe(960);
});

test('a plain TIFF and a RAW without a preview are refused with the reason', async () => {
  const tiff = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } }).tiff().toBuffer();
  const plain = await upload(admin, { title: 'Scan' }, { data: tiff, name: 'scan.tif', type: 'image/tiff' });
  expect(plain.status).toBe(415);
  expect(plain.body.message).toBe('Unsupported RAW file: upload CR2, CR3, NEF, ARW, RAF or DNG (or a JPG, PNG, GIF or WebP image).');
  const bare = await upload(admin, { title: 'Bare' }, { data: await makeDng('bare.dng', false), name: 'bare.dng', type: 'image/x-adobe-dng' });
  expect(bare.status).toBe(415);
  expect(bare.body.message).toBe('This RAW file holds no preview image to show. Export a JPEG from it, or upload the RAW with its preview.');
  const folders = fs.readdirSync(server.mediaDir).filter((n) => !n.startsWith('.'));
  // Nothing was kept of either: the one folder is the DNG of the first test.
  expect(folders).toHaveLength(1);
});
