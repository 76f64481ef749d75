// Stills proofing (issue 42), downloads that follow the package: every tier for a client and a
// link's guest (an original never leaves a web-size gallery, by any address), a set's tier over
// the gallery's, ZIPs of the gallery, a set and a list (read back with Info-ZIP's unzip) and
// their log rows, the download PIN (viewing stays free) and the high-res cap.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { clientSession, Session, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { createGallery, enterLink, galleryLink, shotJpeg, uploadShots, whenSizesReady } from '../helpers/proofing.ts';
import { scratchDir } from '../helpers/scratch.ts';

let server: TestServer;
let admin: Session;
let client: Session;
let guest: Session;
let token: string;
let linkId: number;
let g: any;
let portraits: { id: number };
const originals = new Map<string, Buffer>();
const SIZES = ['web1024', 'web2048', 'highres', 'original'] as const;
const TIERS = ['off', ...SIZES] as const;

const SHOTS = [
  { name: 'DSC_0001.jpg', taken: '2026:05:02 14:00:01', width: 3000, height: 2000 },
  { name: 'DSC_0002.jpg', taken: '2026:05:02 14:00:02', width: 2000, height: 3000 },
  { name: 'DSC_0003.jpg', taken: '2026:05:02 14:00:03', width: 3000, height: 2000 },
];

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const c = await createClientWithLogin(server, { name: 'Acme Ltd' });
  client = await clientSession(server.url, c.username, c.password);
  for (const shot of SHOTS) originals.set(shot.name, await shotJpeg(shot));
  const ids = await uploadShots(admin, SHOTS);
  g = await createGallery(admin, { title: 'Product shoot', mediaIds: ids });
  portraits = (await admin.json('POST', `/api/galleries/${g.id}/sets`, { name: 'Portraits', downloadTier: 'original' })).body;
  g = await whenSizesReady(admin, g.id);
  await admin.json('PATCH', `/api/galleries/${g.id}/images`, { imageIds: [g.images[1].id], setId: portraits.id });
  await admin.json('PUT', `/api/galleries/${g.id}/clients`, { clientIds: [c.clientId] });
  await admin.json('PATCH', `/api/galleries/${g.id}`, { highResEdge: 2560 });
  ({ token, id: linkId } = await galleryLink(admin, g.id));
  guest = await enterLink(server.url, token, 'Guest One');
}, 180_000);
afterAll(() => server?.stop());

const viewers = () => [
  { who: 'client', s: client, files: `/client/galleries/${g.id}/f`, zip: `/client/galleries/${g.id}/zip`, api: `/api/client/galleries/${g.id}` },
  { who: 'link guest', s: guest, files: `/s/${token}/g`, zip: `/s/${token}/g/zip`, api: `/api/share/${token}/gallery` },
];
const setTier = (downloadTier: string) => admin.json('PATCH', `/api/galleries/${g.id}`, { downloadTier });
const longEdge = async (buf: Buffer) => {
  const m = await sharp(buf).metadata();
  return Math.max(m.width!, m.height!);
};
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

function unzip(buf: Buffer) {
  const dir = scratchDir('proof-zip-');
  const file = path.join(dir, 'a.zip');
  fs.writeFileSync(file, buf);
  execFileSync('unzip', ['-tq', file]); // throws on any CRC or structure error
  const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
  const read = (name: string) => execFileSync('unzip', ['-p', file, name], { maxBuffer: 1 << 28 });
  return { names, read };
}

describe('tiers', () => {
  test('every tier, for a client and for a link guest: each size at most the tier, at its long edge', async () => {
    const img = g.images[0]; // DSC_0001, 3000 x 2000, in no set
    for (const tier of TIERS) {
      expect((await setTier(tier)).status).toBe(200);
      for (const v of viewers()) {
        const offered = (await v.s.json('GET', v.api)).body.images.find((i: any) => i.id === img.id).sizes;
        const allowed = SIZES.slice(0, SIZES.indexOf(tier as any) + 1).reverse();
        expect(offered, `${v.who} at ${tier}`).toEqual(tier === 'off' ? [] : allowed);
        for (const size of SIZES) {
          const res = await v.s.get(`${v.files}/${img.id}/download?size=${size}&download=1`);
          const ok = tier !== 'off' && SIZES.indexOf(size) <= SIZES.indexOf(tier as any);
          expect(res.status, `${v.who}: ${size} at tier ${tier}`).toBe(ok ? 200 : 403);
          if (!ok) {
            expect((await res.json()).message).toBe('This gallery does not offer downloads of that size.');
            continue;
          }
          const body = await bytes(res);
          if (size === 'original') {
            expect(body.equals(originals.get('DSC_0001.jpg')!)).toBe(true);
            expect(res.headers.get('content-disposition')).toContain('filename="DSC_0001.jpg"');
          } else {
            expect(await longEdge(body)).toBe({ web1024: 1024, web2048: 2048, highres: 2560 }[size]);
            expect(res.headers.get('content-type')).toBe('image/jpeg');
          }
        }
      }
    }
  });

  test('an original never leaves a web-size gallery, whatever the address', async () => {
    await setTier('web2048');
    const img = g.images[0];
    const key = (await server.sql.execute({ sql: 'SELECT storage_key FROM media WHERE id = ?', args: [img.mediaId] })).rows[0]!.storage_key;
    for (const v of viewers()) {
      for (const file of ['original.jpg', 'full.webp', 'dl2560.jpg', 'thumb.jpg']) expect((await v.s.get(`${v.files}/${img.id}/${file}`)).status, `${v.who} ${file}`).toBe(404);
      expect((await v.s.get(`${v.files}/${img.id}/download?size=original`)).status).toBe(403);
      expect((await v.s.get(`${v.files}/${img.id}/download?size=highres`)).status).toBe(403);
      expect((await v.s.get(`/media/${key}/original.jpg`)).status).toBe(404);
      // The display sizes are there to look at, none larger than 2,048 px.
      const big = await v.s.get(`${v.files}/${img.id}/g2048.webp`);
      expect(big.status).toBe(200);
      expect(await longEdge(await bytes(big))).toBe(2048);
    }
    // A gallery link holds no items of its own to reach through the share page's file route.
    expect((await guest.get(`/s/${token}/m/${img.mediaId}/original.jpg`)).status).toBe(404);
    expect((await guest.get(`${viewers()[1].files}/${img.id}/download?size=huge`)).status).toBe(400);
  });

  test('a set’s tier wins over the gallery’s', async () => {
    await setTier('web1024');
    const inSet = g.images[1]; // DSC_0002, in Portraits (original)
    for (const v of viewers()) {
      const res = await v.s.get(`${v.files}/${inSet.id}/download?size=original`);
      expect(res.status).toBe(200);
      expect((await bytes(res)).equals(originals.get('DSC_0002.jpg')!)).toBe(true);
      expect((await v.s.get(`${v.files}/${g.images[2].id}/download?size=web2048`)).status).toBe(403);
    }
  });
});

describe('ZIP', () => {
  test('the whole gallery at web size: every image at 1,024 px, the set as a folder, one log row per image', async () => {
    await setTier('web2048');
    const before = Number((await server.sql.execute('SELECT count(*) AS n FROM gallery_downloads')).rows[0]!.n);
    const res = await guest.get(`/s/${token}/g/zip?size=web1024`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('filename="Product shoot.zip"');
    const zip = unzip(await bytes(res));
    expect(zip.names).toEqual(['DSC_0001.jpg', 'Portraits/DSC_0002.jpg', 'DSC_0003.jpg']);
    for (const name of zip.names) expect(await longEdge(zip.read(name))).toBe(1024);
    const rows = (await server.sql.execute({ sql: 'SELECT who, tier, zip_id, file_name, link_id FROM gallery_downloads WHERE id > ? ORDER BY id', args: [before] })).rows;
    expect(rows.map((r) => [r.who, r.tier, r.file_name, r.link_id])).toEqual(zip.names.map((n) => ['Guest One', 'web1024', n, linkId]));
    expect(new Set(rows.map((r) => r.zip_id)).size).toBe(1);
    const log = (await admin.json('GET', `/api/share-links/${linkId}/log`)).body.entries;
    expect(log[0]).toMatchObject({ action: 'download', guestName: 'Guest One', detail: 'ZIP of 3 images, web 1,024 px' });
  });

  test('originals: only what the package allows goes in, byte for byte', async () => {
    const res = await client.get(`/client/galleries/${g.id}/zip?size=original`);
    expect(res.status).toBe(200);
    const zip = unzip(await bytes(res));
    expect(zip.names).toEqual(['Portraits/DSC_0002.jpg']);
    expect(zip.read('Portraits/DSC_0002.jpg').equals(originals.get('DSC_0002.jpg')!)).toBe(true);
    const log = (await admin.json('GET', `/api/galleries/${g.id}/downloads`)).body;
    expect(log[0]).toMatchObject({ who: 'Acme Ltd', via: 'Client Acme Ltd', fileName: 'Portraits/DSC_0002.jpg', tier: 'original', zip: true });
  });

  test('a list’s ZIP holds the viewer’s own picks only; an empty one says so', async () => {
    const list = (await admin.json('POST', `/api/galleries/${g.id}/lists`, { name: 'Favourites' })).body;
    const empty = await guest.get(`/s/${token}/g/zip?size=web1024&list=${list.id}`);
    expect(empty.status).toBe(409);
    expect((await empty.json()).message).toBe('There is nothing to download here yet.');
    await guest.json('PUT', `/api/share/${token}/gallery/lists/${list.id}/picks/${g.images[2].id}`);
    await guest.json('PUT', `/api/share/${token}/gallery/lists/${list.id}/picks/${g.images[1].id}`);
    const zip = unzip(await bytes(await guest.get(`/s/${token}/g/zip?size=web2048&list=${list.id}`)));
    // One folder's worth: a pick that belongs to a set (DSC_0002, in Portraits) sits at the root too.
    expect(zip.names).toEqual(['DSC_0002.jpg', 'DSC_0003.jpg']);
    expect((await client.get(`/client/galleries/${g.id}/zip?size=web2048&list=${list.id}`)).status).toBe(409);
  });
  // Issue 51: some extracting tools fold fullwidth and other compatibility forms (NFKC, Windows'
  // best-fit code pages), so "．．／" in a name would be "../" to them.
  test('a set and a file named with fullwidth ．．／ go in under names that hold no ../ after NFKC', async () => {
    const [id] = await uploadShots(admin, [{ name: '．．／．．／evil.jpg', width: 1200, height: 800 }]);
    const trap = await createGallery(admin, { title: '．．／Trap', mediaIds: [id] });
    const set = (await admin.json('POST', `/api/galleries/${trap.id}/sets`, { name: '．．／．．／Ceremony．' })).body;
    expect((await admin.json('PATCH', `/api/galleries/${trap.id}/images`, { imageIds: [trap.images[0]!.id], setId: set.id })).status).toBe(200);
    const link = await galleryLink(admin, trap.id);
    const v = await enterLink(server.url, link.token, 'Guest Two');
    const res = await v.get(`/s/${link.token}/g/zip?size=web1024`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''Trap.zip");
    const zip = unzip(await bytes(res));
    expect(zip.names).toEqual(['Ceremony/evil.jpg']);
  });
});

describe('PIN and cap', () => {
  test('with a PIN, viewing stays free and downloads wait for it; a new PIN ends the old passes', async () => {
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadPin: '4821', downloadTier: 'web2048' });
    const v = await enterLink(server.url, token, 'Pin Guest');
    const img = g.images[0].id;
    expect((await v.get(`/s/${token}/g/${img}/g480.webp`)).status).toBe(200);
    const view = (await v.json('GET', `/api/share/${token}/gallery`)).body;
    expect(view.downloads).toMatchObject({ pinRequired: true, pinOk: false });
    const refused = await v.get(`/s/${token}/g/${img}/download?size=web1024`);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Enter the download PIN the studio gave you to download.');
    expect((await v.get(`/s/${token}/g/zip?size=web1024`)).status).toBe(403);
    const wrong = await v.json('POST', `/api/share/${token}/gallery/pin`, { pin: '1234' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('That PIN is not right.');
    expect((await v.json('POST', `/api/share/${token}/gallery/pin`, { pin: '12' })).status).toBe(400);
    expect((await v.json('POST', `/api/share/${token}/gallery/pin`, { pin: '4821' })).status).toBe(200);
    expect((await v.get(`/s/${token}/g/${img}/download?size=web1024`)).status).toBe(200);
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadPin: '9999' });
    expect((await v.get(`/s/${token}/g/${img}/download?size=web1024`)).status).toBe(403);
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadPin: null });
  });

  test('a client\'s invitation carries the PIN (issue 53): it is theirs to download with; not when the gallery offers no downloads', async () => {
    const before = (await admin.json('GET', `/api/galleries/${g.id}`)).body;
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadPin: '4821', downloadTier: 'web2048' });
    const invitation = async (name: string) => {
      const c = await createClientWithLogin(server, { name });
      const clientIds = [...(await admin.json('GET', `/api/galleries/${g.id}`)).body.clients.map((x: { id: number }) => x.id), c.clientId];
      expect((await admin.json('PUT', `/api/galleries/${g.id}/clients`, { clientIds })).status).toBe(200);
      const rows = await server.sql.execute({ sql: `SELECT o.subject, o.body FROM notification_outbox o WHERE o.recipient_kind = 'client' AND o.recipient_id = ?`, args: [String(c.clientUserId)] });
      expect(rows.rows.map((r) => r.subject)).toEqual(['New gallery to view: Product shoot']);
      return String(rows.rows[0]!.body);
    };
    expect(await invitation('Pinned Ltd')).toContain('\n\nDownloads ask for a PIN: 4821\n');
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadTier: 'off' });
    expect(await invitation('Viewing Only Ltd')).not.toContain('PIN');
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadPin: null, downloadTier: before.downloadTier });
  });

  test('wrong PINs are throttled per address: the sixth in 15 minutes is a 429', async () => {
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadPin: '4821' });
    const from = new Session(server.url, '127.0.0.9');
    expect((await from.get(`/s/${token}`)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await from.json('POST', `/api/share/${token}/gallery/pin`, { pin: '0000' })).status).toBe(401);
    const sixth = await from.json('POST', `/api/share/${token}/gallery/pin`, { pin: '4821' });
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toMatch(/^Too many wrong PINs\. Please wait \d+ minutes? and try again\.$/);
    // Another address is not locked out.
    const other = new Session(server.url, '127.0.0.10');
    expect((await other.get(`/s/${token}`)).status).toBe(200);
    expect((await other.json('POST', `/api/share/${token}/gallery/pin`, { pin: '4821' })).status).toBe(200);
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadPin: null });
  });

  test('the high-res cap: distinct images per viewer, again for free, web sizes still open', async () => {
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadTier: 'highres', highResCap: 1 });
    const [a, , c] = g.images.map((i: any) => i.id);
    const fresh = await createClientWithLogin(server, { name: 'Capped Co' });
    await admin.json('PUT', `/api/galleries/${g.id}/clients`, { clientIds: [fresh.clientId] });
    const s = await clientSession(server.url, fresh.username, fresh.password);
    const files = `/client/galleries/${g.id}/f`;
    expect((await s.get(`${files}/${a}/download?size=highres`)).status).toBe(200);
    expect((await s.get(`${files}/${a}/download?size=highres`)).status).toBe(200);
    const over = await s.get(`${files}/${c}/download?size=highres`);
    expect(over.status).toBe(403);
    expect((await over.json()).message).toBe('This gallery allows 1 high-resolution download per viewer; you have 0 left. Choose a web size, or ask the studio.');
    expect((await s.get(`${files}/${c}/download?size=web2048`)).status).toBe(200);
    expect((await s.get(`/client/galleries/${g.id}/zip?size=highres`)).status).toBe(403);
    const view = (await s.json('GET', `/api/client/galleries/${g.id}`)).body;
    expect(view.downloads).toMatchObject({ highResCap: 1, highResUsed: 1 });
    expect(view.images.find((i: any) => i.id === a).sizes).toEqual(['highres', 'web2048', 'web1024']);
    expect(view.images.find((i: any) => i.id === c).sizes).toEqual(['web2048', 'web1024']);
    // The client's logins count together: a second one is past the cap too, and fetches `a` again freely.
    const second = await createClientWithLogin(server, { clientId: fresh.clientId });
    const s2 = await clientSession(server.url, second.username, second.password);
    expect((await s2.get(`${files}/${c}/download?size=highres`)).status).toBe(403);
    expect((await s2.get(`${files}/${a}/download?size=highres`)).status).toBe(200);
    // Another link's guests count apart from the client (a link's visitors count together).
    const other = await galleryLink(admin, g.id, { name: 'Second link' });
    const stranger = await enterLink(server.url, other.token, 'Guest Two');
    expect((await stranger.get(`/s/${other.token}/g/${c}/download?size=highres`)).status).toBe(200);
  });
});

describe('ranges and the download log', () => {
  /** The download rows written since `before` (all viewers). */
  const rowsSince = async (before: number) => Number((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM gallery_downloads WHERE id > ?', args: [before] })).rows[0]!.n);
  const lastRow = async () => Number((await server.sql.execute('SELECT coalesce(max(id), 0) AS n FROM gallery_downloads')).rows[0]!.n);

  test('every answer that may start at byte 0 is a download; a range from a later byte resumes the one started', async () => {
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadTier: 'web2048', highResCap: null });
    const link = await galleryLink(admin, g.id, { name: 'Ranges' });
    const v = await enterLink(server.url, link.token, 'Range Guest');
    const file = `/s/${link.token}/g/${g.images[2].id}/download?size=web1024`;
    const first = await lastRow();
    const whole = await bytes(await v.get(file));
    expect(await rowsSince(first)).toBe(1);
    const size = whole.length;
    const cases: [string, number, number, boolean][] = [
      ['bytes=100-', 206, 100, false],
      ['bytes=0-', 206, 0, true],
      ['bytes=0-0', 206, 0, true],
      [`bytes=-${size + 10}`, 206, 0, true],
      ['bytes=-10', 206, size - 10, false],
      ['bytes =1-', 200, 0, true], // not a range (RFC 9110): the whole file
    ];
    for (const [range, status, from, logged] of cases) {
      const before = await lastRow();
      const res = await v.get(file, { Range: range });
      expect(res.status, range).toBe(status);
      const body = await bytes(res);
      if (status === 206) expect(res.headers.get('content-range'), range).toBe(`bytes ${from}-${range === 'bytes=0-0' ? 0 : size - 1}/${size}`);
      expect(body.equals(range === 'bytes=0-0' ? whole.subarray(0, 1) : whole.subarray(from)), range).toBe(true);
      expect(await rowsSince(before), range).toBe(logged ? 1 : 0);
    }
  });

  test('a range from a later byte of a file not started is a download: logged for a guest, refused past the cap, with or without If-Range', async () => {
    await admin.json('PATCH', `/api/galleries/${g.id}`, { downloadTier: 'highres', highResCap: 1 });
    const link = await galleryLink(admin, g.id, { name: 'Late starts' });
    const v = await enterLink(server.url, link.token, 'Late Starter');
    const file = `/s/${link.token}/g/${g.images[0].id}/download?size=web1024`;
    const before = await lastRow();
    const late = await v.get(file, { Range: 'bytes=1-' });
    expect(late.status).toBe(206);
    expect(late.headers.get('content-range')).toMatch(/^bytes 1-/);
    await late.arrayBuffer();
    expect(await rowsSince(before)).toBe(1);
    expect((await admin.json('GET', `/api/share-links/${link.id}/log`)).body.entries[0]).toMatchObject({ action: 'download', guestName: 'Late Starter' });
    await (await v.get(file, { Range: 'bytes=1-' })).arrayBuffer(); // now a resume
    expect(await rowsSince(before)).toBe(1);
    // A stale If-Range turns the range into the whole file: a download of its own.
    const stale = await v.get(file, { Range: 'bytes=1-', 'If-Range': '"stale-1"' });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    expect(await rowsSince(before)).toBe(2);

    // A client past the cap gets no image it has not downloaded, whatever the Range says.
    const c = await createClientWithLogin(server, { name: 'Range Co' });
    await admin.json('PUT', `/api/galleries/${g.id}/clients`, { clientIds: [c.clientId] });
    const s = await clientSession(server.url, c.username, c.password);
    const files = `/client/galleries/${g.id}/f`;
    const [a, , other] = g.images.map((i: any) => i.id);
    await (await s.get(`${files}/${a}/download?size=highres`)).arrayBuffer();
    for (const headers of [{ Range: 'bytes=1-' }, { Range: 'bytes=1-', 'If-Range': '"stale-1"' }] as Record<string, string>[]) {
      const over = await s.get(`${files}/${other}/download?size=highres`, headers);
      expect(over.status, JSON.stringify(headers)).toBe(403);
      expect((await over.json()).message).toBe('This gallery allows 1 high-resolution download per viewer; you have 0 left. Choose a web size, or ask the studio.');
    }
    // Resuming the one it downloaded is free.
    const resume = await s.get(`${files}/${a}/download?size=highres`, { Range: 'bytes=1-' });
    expect(resume.status).toBe(206);
    await resume.arrayBuffer();
    expect((await s.json('GET', `/api/client/galleries/${g.id}`)).body.downloads).toMatchObject({ highResCap: 1, highResUsed: 1 });
    await admin.json('PATCH', `/api/galleries/${g.id}`, { highResCap: null });
  });
});

describe('file names and sizes', () => {
  test('two images of one name are X.jpg and X (2).jpg in a ZIP; high-res never enlarges a 1,600 px original', async () => {
    const ids = await uploadShots(admin, [
      { name: 'X.jpg', taken: '2026:05:03 10:00:00' },
      { name: 'X.jpg', taken: '2026:05:03 10:00:01', colour: '#1e3a8a' },
    ]);
    const twins = await createGallery(admin, { title: 'Twins', mediaIds: ids });
    await admin.json('PATCH', `/api/galleries/${twins.id}`, { downloadTier: 'highres' });
    const link = await galleryLink(admin, twins.id);
    const v = await enterLink(server.url, link.token, 'Twin Guest');
    expect(unzip(await bytes(await v.get(`/s/${link.token}/g/zip?size=web1024`))).names).toEqual(['X.jpg', 'X (2).jpg']);
    const high = await v.get(`/s/${link.token}/g/${twins.images[0].id}/download?size=highres`);
    expect(high.status).toBe(200);
    expect(await longEdge(await bytes(high))).toBe(1600);
  });
});

describe('the PIN’s bars and passes', () => {
  let a: any; // PIN 1111, with a link
  let b: any; // PIN 2222
  let pinClient: Session;
  let link: { id: number; token: string };
  beforeAll(async () => {
    const c = await createClientWithLogin(server, { name: 'Pin Co' });
    pinClient = await clientSession(server.url, c.username, c.password);
    a = await createGallery(admin, { title: 'Pin A', mediaIds: [g.images[0].mediaId] });
    b = await createGallery(admin, { title: 'Pin B', mediaIds: [g.images[0].mediaId] });
    for (const [gallery, pin] of [[a, '1111'], [b, '2222']]) {
      expect((await admin.json('PATCH', `/api/galleries/${gallery.id}`, { downloadPin: pin })).status).toBe(200);
      expect((await admin.json('PUT', `/api/galleries/${gallery.id}/clients`, { clientIds: [c.clientId] })).status).toBe(200);
    }
    link = await galleryLink(admin, a.id, { name: 'Pin link' });
  });

  test('a PIN pass opens its own gallery only', async () => {
    expect((await pinClient.json('POST', `/api/client/galleries/${b.id}/pin`, { pin: '2222' })).status).toBe(200);
    expect((await pinClient.get(`/client/galleries/${b.id}/f/${b.images[0].id}/download?size=web1024`)).status).toBe(200);
    // B's pass sent under A's cookie name: A still wants its own PIN.
    pinClient.cookies.set(`studio_pin_${a.id}`, pinClient.cookies.get(`studio_pin_${b.id}`)!);
    const refused = await pinClient.get(`/client/galleries/${a.id}/f/${a.images[0].id}/download?size=web1024`);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Enter the download PIN the studio gave you to download.');
    expect((await pinClient.json('GET', `/api/client/galleries/${a.id}`)).body.downloads).toMatchObject({ pinRequired: true, pinOk: false });
    pinClient.cookies.delete(`studio_pin_${a.id}`);
  });

  test('guessers from ten addresses fill the gallery’s bar; the signed-in client and a browser that entered the PIN before still get through, until the PIN changes', async () => {
    const pinUrl = `/api/share/${link.token}/gallery/pin`;
    const knower = await enterLink(server.url, link.token);
    expect((await knower.json('POST', pinUrl, { pin: '1111' })).status).toBe(200);
    knower.cookies.delete(`studio_pin_${a.id}`); // its day's pass is over: it enters the PIN again
    for (let i = 1; i <= 10; i++) {
      const from = new Session(server.url, `127.0.1.${i}`);
      expect((await from.get(`/s/${link.token}`)).status).toBe(200);
      for (let j = 0; j < 5; j++) expect((await from.json('POST', pinUrl, { pin: '0000' })).status).toBe(401);
    }
    const stranger = new Session(server.url, '127.0.1.20');
    expect((await stranger.get(`/s/${link.token}`)).status).toBe(200);
    const barred = await stranger.json('POST', pinUrl, { pin: '1111' });
    expect(barred.status).toBe(429);
    expect(barred.body.message).toMatch(/^Too many wrong PINs\. Please wait \d+ minutes and try again\.$/);
    const clientPin = `/api/client/galleries/${a.id}/pin`;
    expect((await pinClient.json('POST', clientPin, { pin: '0000' })).status).toBe(401);
    expect((await pinClient.json('POST', clientPin, { pin: '1111' })).status).toBe(200);
    expect((await knower.json('POST', pinUrl, { pin: '1111' })).status).toBe(200);
    // A new PIN: the browsers that knew the old one wait with everyone.
    expect((await admin.json('PATCH', `/api/galleries/${a.id}`, { downloadPin: '3333' })).status).toBe(200);
    expect((await knower.json('POST', pinUrl, { pin: '3333' })).status).toBe(429);
    const left = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM trusted_devices WHERE account = ?', args: [`pin:${a.id}`] });
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});
