// Stills proofing (issue 42), galleries and picking through the API: who may make and read
// galleries, the order (EXIF capture time, file name, manual), hearts and stars, selection lists
// with their bounds (the pick past the maximum refused, also when sent at once), submit and
// lock, the studio's view per viewer with CSV and Lightroom exports, reopen with a note, and a
// link's guests picking apart from each other.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { clientSession, Session, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { uploadImage, sampleVideo, upload } from '../helpers/media-uploads.ts';
import { createGallery, enterLink, galleryLink, uploadShots, whenSizesReady } from '../helpers/proofing.ts';

let server: TestServer;
let admin: Session;
let viewerStaff: Session; // view:media only
let client: Session;
let clientId: number;
let otherClient: Session;
let gallery: any;
let list: { id: number };

const SHOTS = [
  { name: 'IMG_10.jpg', taken: '2026:03:01 10:00:03' },
  { name: 'IMG_2.jpg', taken: '2026:03:01 10:00:01' },
  { name: 'IMG_1.jpg', taken: '2026:03:01 10:00:02' },
  { name: 'IMG_3.jpg' },
  { name: 'IMG_20.jpg', taken: '2026:03:01 09:59:00' },
];

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const v = await createStaffUser(server, { permissions: ['view:media'] });
  viewerStaff = await staffSession(server.url, v.username, v.password);
  const c = await createClientWithLogin(server, { name: 'Bride and groom' });
  clientId = c.clientId;
  client = await clientSession(server.url, c.username, c.password);
  const o = await createClientWithLogin(server, { name: 'Someone else' });
  otherClient = await clientSession(server.url, o.username, o.password);
  const ids = await uploadShots(admin, SHOTS);
  gallery = await createGallery(admin, { title: 'Wedding day', mediaIds: ids });
  gallery = await whenSizesReady(admin, gallery.id);
  list = (await admin.json('POST', `/api/galleries/${gallery.id}/lists`, { name: 'Pick 3 for retouching', minCount: 2, maxCount: 3 })).body;
  expect((await admin.json('PUT', `/api/galleries/${gallery.id}/clients`, { clientIds: [clientId] })).status).toBe(200);
}, 180_000);
afterAll(() => server?.stop());

const names = (images: { filename?: string; name?: string }[]) => images.map((i) => i.filename ?? i.name);
const base = () => `/api/client/galleries/${gallery.id}`;

describe('making galleries', () => {
  test('only staff who see the library read galleries; only edit:media makes them', async () => {
    expect((await new Session(server.url).json('GET', '/api/galleries')).status).toBe(401);
    expect((await client.json('GET', '/api/galleries')).status).toBe(401);
    const none = await createStaffUser(server, { permissions: ['share:media'] });
    expect((await (await staffSession(server.url, none.username, none.password)).json('GET', '/api/galleries')).status).toBe(403);
    expect((await viewerStaff.json('GET', '/api/galleries')).status).toBe(200);
    const made = await viewerStaff.json('POST', '/api/galleries', { title: 'Not mine to make' });
    expect(made.status).toBe(403);
    expect((await viewerStaff.json('PATCH', `/api/galleries/${gallery.id}`, { title: 'x' })).status).toBe(403);
  });

  test('a gallery holds images only: a video id is refused naming it', async () => {
    const video = await upload(admin, { title: 'Clip' }, { data: sampleVideo('mp4'), name: 'clip.mp4', type: 'video/mp4' });
    const r = await admin.json('POST', '/api/galleries', { title: 'Mixed', mediaIds: [video.body.id] });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(`mediaIds: No image ${video.body.id} in the library (galleries hold images only)`);
  });

  test('sorted by EXIF capture time (images without one last, by name), with camera and lens kept', async () => {
    expect(names(gallery.images)).toEqual(['IMG_20.jpg', 'IMG_2.jpg', 'IMG_1.jpg', 'IMG_10.jpg', 'IMG_3.jpg']);
    const first = gallery.images[0];
    expect(first.capturedAt).toBe('2026-03-01T09:59:00.000Z'); // 09:59 UK time in March is UTC
    expect(first.camera).toBe('Canon EOS R5');
    expect(first.lens).toBe('RF50mm F1.2 L USM');
    expect(gallery.images.find((i: any) => i.filename === 'IMG_3.jpg').capturedAt).toBeNull();
  });

  test('by file name as people read it, and a manual order that must name every image once', async () => {
    const byName = await admin.json('PATCH', `/api/galleries/${gallery.id}`, { sortOrder: 'filename' });
    expect(names(byName.body.images)).toEqual(['IMG_1.jpg', 'IMG_2.jpg', 'IMG_3.jpg', 'IMG_10.jpg', 'IMG_20.jpg']);
    const ids = byName.body.images.map((i: any) => i.id);
    const partial = await admin.json('PUT', `/api/galleries/${gallery.id}/order`, { imageIds: ids.slice(1) });
    expect(partial.status).toBe(400);
    expect(partial.body.message).toMatch(/^imageIds: Send every image of the gallery \(5\)/);
    const reversed = [...ids].reverse();
    expect((await admin.json('PUT', `/api/galleries/${gallery.id}/order`, { imageIds: reversed })).status).toBe(200);
    const after = (await admin.json('GET', `/api/galleries/${gallery.id}`)).body;
    expect(after.sortOrder).toBe('manual');
    expect(after.images.map((i: any) => i.id)).toEqual(reversed);
    // Back to capture time for the rest of the file.
    await admin.json('PATCH', `/api/galleries/${gallery.id}`, { sortOrder: 'capture' });
  });

  test('sets: images move into one; the cover must be one of the gallery’s images', async () => {
    const set = (await admin.json('POST', `/api/galleries/${gallery.id}/sets`, { name: 'Ceremony' })).body;
    const two = gallery.images.slice(0, 2).map((i: any) => i.id);
    expect((await admin.json('PATCH', `/api/galleries/${gallery.id}/images`, { imageIds: two, setId: set.id })).status).toBe(200);
    const detail = (await admin.json('GET', `/api/galleries/${gallery.id}`)).body;
    expect(detail.images.filter((i: any) => i.setId === set.id).map((i: any) => i.id).sort()).toEqual([...two].sort());
    const stranger = await uploadImage(admin, { title: 'Not in it' });
    const bad = await admin.json('PATCH', `/api/galleries/${gallery.id}`, { coverMediaId: stranger.id });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('coverMediaId: The cover must be one of the gallery’s images');
    expect((await admin.json('PATCH', `/api/galleries/${gallery.id}`, { coverMediaId: gallery.images[2].mediaId })).body.coverMediaId).toBe(gallery.images[2].mediaId);
  });
});

describe('a client picks', () => {
  test('only the clients it is shared with see it', async () => {
    expect((await otherClient.json('GET', base())).status).toBe(404);
    expect((await new Session(server.url).json('GET', base())).status).toBe(401);
    const mine = await client.json('GET', '/api/client/galleries');
    expect(mine.body.map((g: any) => g.title)).toEqual(['Wedding day']);
    const view = await client.json('GET', base());
    expect(view.status).toBe(200);
    expect(view.body.lists).toEqual([expect.objectContaining({ id: list.id, name: 'Pick 3 for retouching', minCount: 2, maxCount: 3, count: 0, submittedAt: null })]);
    expect(view.body.images).toHaveLength(5);
  });

  test('hearts and stars are kept per viewer; bad input is a 400 naming the field', async () => {
    const img = gallery.images[0].id;
    expect((await client.json('PUT', `${base()}/marks/${img}`, { heart: true })).body).toEqual({ heart: true, stars: 0 });
    expect((await client.json('PUT', `${base()}/marks/${img}`, { stars: 4 })).body).toEqual({ heart: true, stars: 4 });
    const bad = await client.json('PUT', `${base()}/marks/${img}`, { stars: 6 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('stars: stars must be 0 to 5');
    expect((await client.json('PUT', `${base()}/marks/999999`, { heart: true })).status).toBe(404);
    const view = (await client.json('GET', base())).body;
    expect(view.images.find((i: any) => i.id === img)).toMatchObject({ heart: true, stars: 4 });
  });

  test('picks count up to the maximum; the next is refused with a clear message', async () => {
    const [a, b, c, d] = gallery.images.map((i: any) => i.id);
    for (const [n, img] of [a, b, c].entries()) {
      const r = await client.json('PUT', `${base()}/lists/${list.id}/picks/${img}`);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(n + 1);
    }
    const fourth = await client.json('PUT', `${base()}/lists/${list.id}/picks/${d}`);
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toBe('You have picked 3 of 3 for “Pick 3 for retouching”. Remove one to pick another.');
    // Picking one already picked again is no second pick.
    expect((await client.json('PUT', `${base()}/lists/${list.id}/picks/${a}`)).body.count).toBe(3);
    const view = (await client.json('GET', base())).body;
    expect(view.images.filter((i: any) => i.picks.includes(list.id)).map((i: any) => i.id).sort()).toEqual([a, b, c].sort());
  });

  test('picks sent at once never pass the maximum together', async () => {
    const tight = (await admin.json('POST', `/api/galleries/${gallery.id}/lists`, { name: 'Pick 2', maxCount: 2 })).body;
    const all = gallery.images.map((i: any) => i.id);
    const answers = await Promise.all(all.map((img: number) => client.json('PUT', `${base()}/lists/${tight.id}/picks/${img}`)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(2);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(3);
    const view = (await client.json('GET', base())).body;
    expect(view.lists.find((l: any) => l.id === tight.id).count).toBe(2);
    await admin.json('DELETE', `/api/galleries/${gallery.id}/lists/${tight.id}`);
  });

  test('submit needs the minimum, then locks the list', async () => {
    const [a, b, c] = gallery.images.map((i: any) => i.id);
    await client.json('DELETE', `${base()}/lists/${list.id}/picks/${b}`);
    await client.json('DELETE', `${base()}/lists/${list.id}/picks/${c}`);
    const few = await client.json('POST', `${base()}/lists/${list.id}/submit`);
    expect(few.status).toBe(409);
    expect(few.body.message).toBe('Pick at least 2 for “Pick 3 for retouching” before you submit (you have 1).');
    await client.json('PUT', `${base()}/lists/${list.id}/picks/${b}`);
    const sent = await client.json('POST', `${base()}/lists/${list.id}/submit`);
    expect(sent.status).toBe(200);
    expect(sent.body.count).toBe(2);
    expect(sent.body.submittedAt).toEqual(expect.any(String));
    for (const r of [await client.json('PUT', `${base()}/lists/${list.id}/picks/${c}`), await client.json('DELETE', `${base()}/lists/${list.id}/picks/${a}`), await client.json('POST', `${base()}/lists/${list.id}/submit`)]) {
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(/^You submitted “Pick 3 for retouching” on \d{1,2} \w{3} \d{4}, so it is locked\. Ask the studio to reopen it/);
    }
  });

  test('staff are told (bell) and see the list per viewer with counts and exports', async () => {
    const bell = await admin.json('GET', '/api/notifications');
    expect(bell.body.events[0]).toMatchObject({ kind: 'selection_submitted', summary: `Bride and groom submitted "Pick 3 for retouching" (2 / 3) in "Wedding day"`, path: `/admin/galleries/${gallery.id}?tab=selections` });
    const sel = await viewerStaff.json('GET', `/api/galleries/${gallery.id}/selections`);
    expect(sel.status).toBe(200);
    expect(sel.body).toEqual([
      expect.objectContaining({ listName: 'Pick 3 for retouching', viewerName: 'Bride and groom', via: 'Client Bride and groom', count: 2, hearts: 1, maxCount: 3, submittedAt: expect.any(String) }),
    ]);
    const id = sel.body[0].id;
    const lr = await viewerStaff.get(`/api/galleries/${gallery.id}/selections/${id}/export?format=lightroom`);
    // In the gallery's order (capture time), without extensions.
    expect(await lr.text()).toBe('IMG_20,IMG_2');
    const csv = await (await viewerStaff.get(`/api/galleries/${gallery.id}/selections/${id}/export?format=csv&download=1`)).text();
    expect(csv.split('\r\n')[0]).toBe('File name,Name without extension,Title,Set,Stars,Heart,Captured,Camera,Lens');
    expect(csv.split('\r\n')[1]).toBe('IMG_20.jpg,IMG_20,IMG_20,Ceremony,4,yes,2026-03-01T09:59:00.000Z,Canon EOS R5,RF50mm F1.2 L USM');
    expect((await viewerStaff.json('GET', `/api/galleries/${gallery.id}/selections/${id}/export?format=pdf`)).status).toBe(400);
  });

  test('staff reopen with a note (edit:media); the client sees it and may change the list again', async () => {
    const [sel] = (await admin.json('GET', `/api/galleries/${gallery.id}/selections`)).body;
    expect((await viewerStaff.json('POST', `/api/galleries/${gallery.id}/selections/${sel.id}/reopen`, { note: 'x' })).status).toBe(403);
    expect((await admin.json('POST', `/api/galleries/${gallery.id}/selections/${sel.id}/reopen`, { note: '' })).status).toBe(400);
    const r = await admin.json('POST', `/api/galleries/${gallery.id}/selections/${sel.id}/reopen`, { note: 'Swap the second one for a close-up, please.' });
    expect(r.status).toBe(200);
    expect(r.body.submittedAt).toBeNull();
    expect((await admin.json('POST', `/api/galleries/${gallery.id}/selections/${sel.id}/reopen`, { note: 'again' })).status).toBe(409);
    const view = (await client.json('GET', base())).body;
    expect(view.lists[0]).toMatchObject({ submittedAt: null, reopenNote: 'Swap the second one for a close-up, please.', reopenedAt: expect.any(String) });
    expect((await client.json('PUT', `${base()}/lists/${list.id}/picks/${gallery.images[4].id}`)).body.count).toBe(3);
    // Their login hears of it by email (the outbox; no SMTP here, so it is written to a file).
    const mail = await server.sql.execute({ sql: "SELECT subject, body FROM notification_outbox WHERE recipient_kind = 'client' AND subject LIKE 'Your list%'", args: [] });
    expect(mail.rows.map((m) => m.subject)).toEqual(['Your list "Pick 3 for retouching" is open again']);
    expect(String(mail.rows[0]!.body)).toContain('> Swap the second one for a close-up, please.');
  });

  test('a list over a maximum lowered since its picks cannot be submitted', async () => {
    const shrinking = (await admin.json('POST', `/api/galleries/${gallery.id}/lists`, { name: 'Shrinking', maxCount: 3 })).body;
    for (const img of gallery.images.slice(0, 3)) expect((await client.json('PUT', `${base()}/lists/${shrinking.id}/picks/${img.id}`)).status).toBe(200);
    expect((await admin.json('PATCH', `/api/galleries/${gallery.id}/lists/${shrinking.id}`, { maxCount: 2 })).status).toBe(200);
    const sent = await client.json('POST', `${base()}/lists/${shrinking.id}/submit`);
    expect(sent.status).toBe(409);
    expect(sent.body.message).toBe('“Shrinking” allows 2; remove 1 before you submit.');
    expect((await client.json('GET', base())).body.lists.find((l: any) => l.id === shrinking.id).submittedAt).toBeNull();
    await admin.json('DELETE', `/api/galleries/${gallery.id}/lists/${shrinking.id}`);
  });
});

describe('order and names', () => {
  test('images without a capture time follow the rest by name (IMG_9 before IMG_10); a.b.jpg is exported as a.b', async () => {
    // None has a capture time, so all three tie; uploaded in the order the ids would sort them wrongly.
    const ids = await uploadShots(admin, ['IMG_10.jpg', 'IMG_9.jpg', 'a.b.jpg'].map((name) => ({ name, width: 400, height: 300 })));
    const ties = await createGallery(admin, { title: 'Ties', mediaIds: ids });
    expect(names(ties.images)).toEqual(['a.b.jpg', 'IMG_9.jpg', 'IMG_10.jpg']);
    const picks = (await admin.json('POST', `/api/galleries/${ties.id}/lists`, { name: 'Picks' })).body;
    const { token } = await galleryLink(admin, ties.id);
    const guest = await enterLink(server.url, token, 'Dot');
    expect((await guest.json('GET', `/api/share/${token}/gallery`)).body.images.map((i: any) => i.name)).toEqual(['a.b.jpg', 'IMG_9.jpg', 'IMG_10.jpg']);
    for (const img of ties.images) expect((await guest.json('PUT', `/api/share/${token}/gallery/lists/${picks.id}/picks/${img.id}`)).status).toBe(200);
    const [sel] = (await admin.json('GET', `/api/galleries/${ties.id}/selections`)).body;
    expect(await (await admin.get(`/api/galleries/${ties.id}/selections/${sel.id}/export?format=lightroom`)).text()).toBe('a.b,IMG_9,IMG_10');
  });
});

describe('guests on a gallery link', () => {
  test('each guest picks apart, after giving a name; staff see both', async () => {
    const { token } = await galleryLink(admin, gallery.id);
    const anna = await enterLink(server.url, token);
    const first = gallery.images[0].id;
    const nameless = await anna.json('PUT', `/api/share/${token}/gallery/lists/${list.id}/picks/${first}`);
    expect(nameless.status).toBe(400);
    expect(nameless.body.message).toBe('Enter your name first, so the studio knows whose picks these are.');
    expect((await anna.json('PUT', `/api/share/${token}/gallery/viewer`, { name: 'Anna' })).status).toBe(200);
    expect((await anna.json('PUT', `/api/share/${token}/gallery/lists/${list.id}/picks/${first}`)).body.count).toBe(1);
    const ben = await enterLink(server.url, token, 'Ben');
    const benView = (await ben.json('GET', `/api/share/${token}/gallery`)).body;
    expect(benView.lists[0].count).toBe(0);
    expect(benView.viewer).toMatchObject({ name: 'Ben', needsName: false, guest: true });
    await ben.json('PUT', `/api/share/${token}/gallery/lists/${list.id}/picks/${gallery.images[1].id}`);
    await ben.json('PUT', `/api/share/${token}/gallery/lists/${list.id}/picks/${gallery.images[2].id}`);
    const sels = (await admin.json('GET', `/api/galleries/${gallery.id}/selections`)).body;
    expect(sels.map((s: any) => [s.viewerName, s.via, s.count])).toEqual([
      ['Anna', 'Link “For the couple”', 1],
      ['Ben', 'Link “For the couple”', 2],
      ['Bride and groom', 'Client Bride and groom', 3],
    ]);
    // A link to a gallery is no way into another gallery.
    expect((await anna.json('GET', `/api/client/galleries/${gallery.id}`)).status).toBe(401);
  });

  test('a guest back after their pass ended keeps the name they gave with their picks', async () => {
    const { id: linkId, token } = await galleryLink(admin, gallery.id, { name: 'Returning' });
    const cleo = await enterLink(server.url, token, 'Cleo');
    const img = gallery.images[0].id;
    expect((await cleo.json('PUT', `/api/share/${token}/gallery/lists/${list.id}/picks/${img}`)).body.count).toBe(1);
    // Seven days on: the pass is gone; the cookie of the picks (180 days) is not.
    cleo.cookies.delete(`studio_share_${linkId}`);
    expect((await cleo.get(`/s/${token}`)).status).toBe(200);
    const view = (await cleo.json('GET', `/api/share/${token}/gallery`)).body;
    expect(view.viewer).toMatchObject({ name: 'Cleo', needsName: false });
    expect(view.lists.find((l: any) => l.id === list.id).count).toBe(1);
    const note = await cleo.json('POST', `/api/share/${token}/gallery/images/${img}/notes`, { text: 'Lovely light here' });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect(note.body.author).toBe('Cleo');
  });
});
