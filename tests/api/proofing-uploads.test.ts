// Uploading into a gallery (issue 42): a resumable (tus) upload finished with
// POST /api/galleries/{id}/uploads becomes a library image titled from its file name, joins the
// gallery and the set asked for, and gets its gallery sizes from the job queue; a video is
// refused (and stays finishable); the call needs upload:media and edit:media; a new version of
// an image in a gallery gets its own sizes.
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, startServer, storedNames, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { createStaffUser } from '../helpers/accounts.ts';
import { sampleVideo } from '../helpers/media-uploads.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import { until } from '../helpers/until.ts';
import { createGallery, shotJpeg, uploadShots, whenSizesReady } from '../helpers/proofing.ts';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
}, 90_000);
afterAll(() => server?.stop());

async function staged(s: Session, data: Uint8Array, filename: string): Promise<string> {
  const { res, id } = await createUpload(s, data.length, { filename });
  expect(res.status).toBe(201);
  expect((await patchUpload(s, id!, 0, data)).status).toBe(204);
  return id!;
}

test('a tus upload finished into a gallery joins it, in the set asked for, and gets its sizes', async () => {
  const g = await createGallery(admin, { title: 'Event' });
  const set = (await admin.json('POST', `/api/galleries/${g.id}/sets`, { name: 'Speeches' })).body;
  const jpeg = await shotJpeg({ name: 'DSC_0420.jpg', taken: '2026:07:04 19:30:00' });
  const uploadId = await staged(admin, jpeg, 'DSC_0420.jpg');
  const r = await admin.json('POST', `/api/galleries/${g.id}/uploads`, { uploadId, setId: set.id });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toMatchObject({ type: 'image', title: 'DSC_0420', filename: 'DSC_0420.jpg' });
  const ready = await whenSizesReady(admin, g.id);
  expect(ready.images).toEqual([expect.objectContaining({ mediaId: r.body.id, setId: set.id, filename: 'DSC_0420.jpg', capturedAt: '2026-07-04T18:30:00.000Z', ready: true })]);
  const key = r.body.url.split('/')[2];
  expect(await storedNames(server, key)).toEqual(expect.arrayContaining(['g480.avif', 'g480.webp', 'g960.avif', 'g960.webp', 'g2048.webp', 'original.jpg']));
  // A second finish of the same upload is refused as for the library.
  expect((await admin.json('POST', `/api/galleries/${g.id}/uploads`, { uploadId })).status).toBe(409);
});

test('a video is refused and stays finishable; a set of another gallery is refused', async () => {
  const g = await createGallery(admin, { title: 'Stills only' });
  const other = await createGallery(admin, { title: 'Other' });
  const foreignSet = (await admin.json('POST', `/api/galleries/${other.id}/sets`, { name: 'Theirs' })).body;
  const uploadId = await staged(admin, sampleVideo('mp4'), 'clip.mp4');
  const r = await admin.json('POST', `/api/galleries/${g.id}/uploads`, { uploadId });
  expect(r.status).toBe(415);
  expect(r.body.message).toBe('Only images go into a gallery: upload JPG, PNG, GIF, WebP or RAW stills (CR2, CR3, NEF, ARW, RAF, DNG).');
  // Not lost: the same upload still finishes as a library video.
  expect((await admin.json('POST', '/api/media', { uploadId, title: 'Clip' })).status).toBe(201);
  const jpegId = await staged(admin, await shotJpeg({ name: 'x.jpg' }), 'x.jpg');
  const wrongSet = await admin.json('POST', `/api/galleries/${g.id}/uploads`, { uploadId: jpegId, setId: foreignSet.id });
  expect(wrongSet.status).toBe(400);
  expect(wrongSet.body.message).toBe('setId: No such set in this gallery');
  expect((await admin.json('GET', `/api/galleries/${g.id}`)).body.images).toEqual([]);
});

test('needs upload:media and edit:media', async () => {
  const g = await createGallery(admin, { title: 'Guarded' });
  for (const permissions of [['upload:media', 'view:media'], ['edit:media', 'view:media']]) {
    const u = await createStaffUser(server, { permissions });
    const s = await staffSession(server.url, u.username, u.password);
    const uploadId = permissions.includes('upload:media') ? await staged(s, await shotJpeg({ name: 'y.jpg' }), 'y.jpg') : 'a'.repeat(32);
    expect((await s.json('POST', `/api/galleries/${g.id}/uploads`, { uploadId })).status, permissions.join(' ')).toBe(403);
  }
});

test('a new version of an image in a gallery gets its own gallery sizes', async () => {
  const g = await createGallery(admin, { title: 'Retouched' });
  const uploadId = await staged(admin, await shotJpeg({ name: 'IMG_1.jpg', width: 1200, height: 800 }), 'IMG_1.jpg');
  const item = (await admin.json('POST', `/api/galleries/${g.id}/uploads`, { uploadId })).body;
  await whenSizesReady(admin, g.id);
  const portrait = await sharp({ create: { width: 800, height: 1200, channels: 3, background: '#224466' } }).jpeg().toBuffer();
  const v2 = await staged(admin, portrait, 'IMG_1-retouched.jpg');
  expect((await admin.json('POST', `/api/media/${item.id}/versions`, { uploadId: v2 })).status).toBe(201);
  const ready = await until('the new version’s sizes', async () => {
    const d = (await admin.json('GET', `/api/galleries/${g.id}`)).body;
    return d.images[0].filename === 'IMG_1-retouched.jpg' && d.images[0].ready ? d : null;
  });
  expect(ready.images[0]).toMatchObject({ width: 800, height: 1200 });
  const key = (await server.sql.execute({ sql: 'SELECT storage_key FROM media WHERE id = ?', args: [item.id] })).rows[0]!.storage_key as string;
  expect(await storedNames(server, key)).toEqual(expect.arrayContaining(['g2048.webp', 'g960.avif']));
});

test('a still uploaded into a gallery lives there: no library list, picker, count, item link or site setting has it until it leaves the gallery (issue 53)', async () => {
  const g = await createGallery(admin, { title: 'Private wedding' });
  const uploadId = await staged(admin, await shotJpeg({ name: 'IMG_9001.jpg' }), 'IMG_9001.jpg');
  const still = (await admin.json('POST', `/api/galleries/${g.id}/uploads`, { uploadId })).body;
  const [library] = await uploadShots(admin, [{ name: 'Library shot.jpg' }]);
  const listed = async (s: Session) => ((await s.json('GET', '/api/media')).body as { id: number }[]).map((m) => m.id);
  const total = async () => (await admin.json('GET', '/api/stats')).body.totalMedia;

  const counted = await total();
  expect(await listed(admin)).toContain(library);
  expect(await listed(admin)).not.toContain(still.id);
  // The site's pickers (edit:website alone) get the library without it, and none of its files.
  const editor = await createStaffUser(server, { permissions: ['edit:website', 'share:media'] });
  const site = await staffSession(server.url, editor.username, editor.password);
  expect(await listed(site)).toEqual(expect.arrayContaining([library]));
  expect(await listed(site)).not.toContain(still.id);
  expect((await site.get(still.thumbnailUrl)).status).toBe(404);
  expect((await admin.get(still.thumbnailUrl)).status).toBe(200);
  // Nothing takes it by id either: an item link or a site setting.
  for (const s of [admin, site]) {
    const link = await s.json('POST', '/api/share-links', { name: 'Stills', mediaIds: [library, still.id] });
    expect(link.status).toBe(400);
    expect(link.body.message).toMatch(new RegExp(`^mediaIds: (Image ${still.id} belongs to a gallery|No media item ${still.id})`));
    const setting = await s.json('PUT', '/api/website-settings/hero', { backgroundImageId: still.id });
    expect(setting.status).toBe(400);
    expect(setting.body.message).toBe(`backgroundImageId: no library item with id ${still.id}`);
  }
  expect((await admin.json('PUT', '/api/website-settings/hero', { backgroundImageId: library })).status).toBe(200);
  // The gallery's link is the gallery's viewers' business (view:media), not the site editor's.
  const galleryLink = await admin.json('POST', `/api/galleries/${g.id}/links`, { name: 'Guests' });
  expect(galleryLink.status).toBe(201);
  expect(((await site.json('GET', '/api/share-links')).body as { id: number }[]).map((l) => l.id)).not.toContain(galleryLink.body.id);
  // An item link made before this rule that holds the still is not the site editor's either.
  const older = Number((await server.sql.execute(`INSERT INTO share_links (token_hash, name) VALUES ('${'e'.repeat(64)}', 'Older link') RETURNING id`)).rows[0]!.id);
  await server.sql.execute({ sql: 'INSERT INTO share_link_items (link_id, media_id) VALUES (?, ?)', args: [older, still.id] });
  expect(((await site.json('GET', '/api/share-links')).body as { id: number }[]).map((l) => l.id)).not.toContain(older);
  expect(((await admin.json('GET', '/api/share-links')).body as { id: number }[]).map((l) => l.id)).toContain(older);

  // Taken out of the gallery it comes to the library; a deleted gallery's stills do too.
  const image = (await admin.json('GET', `/api/galleries/${g.id}`)).body.images.find((i: { mediaId: number }) => i.mediaId === still.id);
  expect((await admin.json('DELETE', `/api/galleries/${g.id}/images`, { imageIds: [image.id] })).status).toBe(200);
  expect(await listed(admin)).toContain(still.id);
  expect(await total()).toBe(counted + 1);
  const other = await createGallery(admin, { title: 'Deleted later' });
  const second = (await admin.json('POST', `/api/galleries/${other.id}/uploads`, { uploadId: await staged(admin, await shotJpeg({ name: 'IMG_9002.jpg' }), 'IMG_9002.jpg') })).body;
  expect(await listed(admin)).not.toContain(second.id);
  expect((await admin.json('DELETE', `/api/galleries/${other.id}`)).status).toBe(204);
  expect(await listed(admin)).toContain(second.id);
});
