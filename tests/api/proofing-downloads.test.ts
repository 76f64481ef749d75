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
    const zip = unzip(await bytes(await guest.get(`/s/${token}/g/zip?size=web2048&list=${list.id}`)));
    expect(zip.names).toEqual(['DSC_0003.jpg']);
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
    // Another link's guests count apart from the client (a link's visitors count together).
    const other = await galleryLink(admin, g.id, { name: 'Second link' });
    const stranger = await enterLink(server.url, other.token, 'Guest Two');
    expect((await stranger.get(`/s/${other.token}/g/${c}/download?size=highres`)).status).toBe(200);
  });
});
