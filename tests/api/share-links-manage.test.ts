// Share links staff can manage (issue 32): the address kept encrypted with a server key and
// copied again only by an explicit, logged call; editing a link (validated like making one,
// applied to visitors already in on their next request, new previews for a changed look);
// links made before addresses were kept (409, then a new address that revokes the old one);
// the key file (made once, mode 0600, reused on restart) and start-up stopping on a bad key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCipheriv, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, readStored, startServer, usesSqld, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { uploadImage } from '../helpers/media-uploads.ts';

let server: TestServer;
let admin: Session;
let sharer: Session; // share:media + view:media
let shareOnly: Session; // share:media alone: only what the public site shows
let viewerOnly: Session; // view:media only
let client: Session;
let sharerName: string;
let image: any; // private
let still: any; // on the public site
const tokensSeen: string[] = [];

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const mk = async (permissions: string[]) => {
    const u = await createStaffUser(server, { permissions });
    return { session: await staffSession(server.url, u.username, u.password), username: u.username };
  };
  const s = await mk(['share:media', 'view:media']);
  sharer = s.session;
  sharerName = s.username;
  shareOnly = (await mk(['share:media'])).session;
  viewerOnly = (await mk(['view:media'])).session;
  const c = await createClientWithLogin(server, { name: 'Agency' });
  client = await clientSession(server.url, c.username, c.password);
  image = await uploadImage(admin, { title: 'Private still', isFeatured: 'false', showInPortfolio: 'false' });
  still = await uploadImage(admin, { title: 'Portfolio still', isFeatured: 'false', showInPortfolio: 'true' }, '#3366aa');
}, 120_000);
afterAll(() => server?.stop());

async function makeLink(extra: Record<string, unknown> = {}) {
  const r = await sharer.json('POST', '/api/share-links', { name: 'For the agency', mediaIds: [image.id, still.id], ...extra });
  expect(r.status).toBe(201);
  const token = new URL(r.body.url).pathname.split('/').pop()!;
  tokensSeen.push(token);
  return { ...r.body, token } as { id: number; token: string; url: string } & Record<string, any>;
}

/** A visitor who has opened the link's page (which is what makes their pass). */
async function enter(token: string): Promise<Session> {
  const v = new Session(server.url);
  expect((await v.get(`/s/${token}`)).status).toBe(200);
  return v;
}

const logOf = async (id: number) => (await sharer.json('GET', `/api/share-links/${id}/log`)).body.entries as any[];
const copyAddress = (s: Session, id: number) => s.json('POST', `/api/share-links/${id}/address`);
const rowOf = async (id: number) => (await server.sql.execute({ sql: 'SELECT * FROM share_links WHERE id = ?', args: [id] })).rows[0]!;
const itemsOf = async (id: number) =>
  (await server.sql.execute({ sql: 'SELECT media_id FROM share_link_items WHERE link_id = ? ORDER BY position', args: [id] })).rows.map((r) => Number(r.media_id));

describe('who may copy, edit and re-address a link', () => {
  test.each([
    ['signed out', () => new Session(server.url), 401],
    ['a client', () => client, 401],
    ['staff without share:media', () => viewerOnly, 403],
  ] as const)('%s: refused, nothing given or changed', async (_who, who, status) => {
    const link = await makeLink();
    const before = await rowOf(link.id);
    const s = who();
    const copied = await copyAddress(s, link.id);
    expect(copied.status).toBe(status);
    expect(JSON.stringify(copied.body)).not.toContain(link.token);
    expect((await s.json('PATCH', `/api/share-links/${link.id}`, { name: 'Taken over' })).status).toBe(status);
    expect((await s.json('POST', `/api/share-links/${link.id}/new-address`)).status).toBe(status);
    expect(await rowOf(link.id)).toEqual(before);
    expect((await logOf(link.id)).map((e) => e.action)).not.toContain('address copied');
    expect((await new Session(server.url).get(`/s/${link.token}`)).status).toBe(200);
  });

  test('an unknown link is 404', async () => {
    expect((await copyAddress(sharer, 987654)).status).toBe(404);
    expect((await sharer.json('PATCH', '/api/share-links/987654', { name: 'x' })).status).toBe(404);
    expect((await sharer.json('POST', '/api/share-links/987654/new-address')).status).toBe(404);
  });
});

describe('copying the address again', () => {
  test('gives the address made at creation, every time, and writes who copied it to the log', async () => {
    const link = await makeLink();
    const first = await copyAddress(sharer, link.id);
    expect(first).toEqual({ status: 200, body: { id: link.id, url: link.url } });
    expect((await copyAddress(admin, link.id)).body.url).toBe(link.url);
    const copies = (await logOf(link.id)).filter((e) => e.action === 'address copied');
    expect(copies).toHaveLength(2);
    expect(copies.map((e) => e.detail).sort()).toEqual([`by ${sharerName}`, 'by Studio Admin'].sort());
    // The copied address opens the link.
    expect((await new Session(server.url).get(new URL(first.body.url).pathname)).status).toBe(200);
  });

  test('the token is in no list answer, no log entry, no server output and nowhere in the database files', async () => {
    const link = await makeLink({ allowComment: true });
    const v = await enter(link.token);
    await v.json('POST', `/api/share/${link.token}/media/${image.id}/feedback`, { name: 'Pat', text: 'Nice', rating: 4 });
    expect((await copyAddress(sharer, link.id)).body.url).toBe(link.url);
    const list = await sharer.json('GET', '/api/share-links');
    expect(list.status).toBe(200);
    const summary = list.body.find((l: any) => l.id === link.id);
    expect(summary).toMatchObject({ addressKept: true, name: 'For the agency' });
    expect(summary.url).toBeUndefined();
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { name: 'Renamed' })).body.url).toBeUndefined();
    const log = await sharer.json('GET', `/api/share-links/${link.id}/log`);
    expect(log.body.entries.length).toBeGreaterThanOrEqual(3);
    // The database holds it encrypted: no column, no page of the file or its WAL in plain text.
    const row = await rowOf(link.id);
    expect(String(row.token_enc)).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    // On a libSQL server (project "sqld"): every file of its data folder, its own WAL included.
    if (!usesSqld) await server.sql.execute('PRAGMA wal_checkpoint(PASSIVE)');
    const sqldDir = path.join(server.dir, 'sqld');
    const files = (
      usesSqld
        ? (fs.readdirSync(sqldDir, { recursive: true }) as string[]).map((f) => path.join(sqldDir, f))
        : [server.dbFile, `${server.dbFile}-wal`, `${server.dbFile}-shm`]
    ).filter((f) => fs.existsSync(f) && fs.statSync(f).isFile());
    expect(files).toContain(usesSqld ? path.join(sqldDir, 'data.sqld', 'dbs', 'default', 'data') : server.dbFile);
    for (const token of tokensSeen) {
      expect(JSON.stringify(list.body)).not.toContain(token);
      expect(JSON.stringify(log.body)).not.toContain(token);
      expect(server.output()).not.toContain(token);
      for (const f of files) {
        const bytes = fs.readFileSync(f);
        expect(bytes.includes(Buffer.from(token)), `${token} in ${path.basename(f)}`).toBe(false);
        expect(bytes.includes(Buffer.from(token.toUpperCase()))).toBe(false);
      }
    }
  });
});

describe('editing a link', () => {
  test('turning comments off refuses the next comment of a visitor already in', async () => {
    const link = await makeLink({ allowComment: true });
    const v = await enter(link.token);
    const say = () => v.json('POST', `/api/share/${link.token}/media/${image.id}/feedback`, { name: 'Pat', text: 'Lovely', rating: 5 });
    expect((await say()).status).toBe(201);
    const edited = await sharer.json('PATCH', `/api/share-links/${link.id}`, { allowComment: false });
    expect(edited).toMatchObject({ status: 200, body: { id: link.id, allowComment: false } });
    expect((await say()).status).toBe(403);
    expect((await v.json('GET', `/api/share/${link.token}`)).body.allowComment).toBe(false);
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { allowComment: true })).status).toBe(200);
    expect((await say()).status).toBe(201);
    expect((await logOf(link.id)).find((e) => e.action === 'edited')?.detail).toBe(`by ${sharerName}: comments`);
  });

  test('downloads, name and items change for a visitor already in', async () => {
    const link = await makeLink({ download: 'original' });
    const v = await enter(link.token);
    const view = (await v.json('GET', `/api/share/${link.token}`)).body;
    const download = view.items.find((i: any) => i.id === image.id).downloadUrl;
    // The original itself: its own address, and the stored bytes.
    expect(download).toBe(`/s/${link.token}/m/${image.id}/original.jpg?download=1`);
    const got = await v.get(download);
    expect(got.status).toBe(200);
    const [, key] = /\/media\/([a-f0-9]{32})\//.exec(image.url)!;
    expect(Buffer.from(await got.arrayBuffer()).equals((await readStored(server, key!, 'original.jpg'))!)).toBe(true);
    const r = await sharer.json('PATCH', `/api/share-links/${link.id}`, { name: 'Second round', download: 'none', mediaIds: [still.id] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Second round', download: 'none', items: [{ id: still.id }] });
    expect((await v.get(download)).status).toBe(404);
    const after = (await v.json('GET', `/api/share/${link.token}`)).body;
    expect(after).toMatchObject({ name: 'Second round', download: 'none' });
    expect(after.items.map((i: any) => i.id)).toEqual([still.id]);
    expect((await v.get(`/s/${link.token}/m/${image.id}/thumb.jpg`)).status).toBe(404);
    expect(await itemsOf(link.id)).toEqual([still.id]);
  });

  test('setting a password ends the passes already made; the new password opens it; removing it opens it again', async () => {
    const link = await makeLink();
    const v = await enter(link.token);
    expect((await v.json('GET', `/api/share/${link.token}`)).status).toBe(200);
    const set = await sharer.json('PATCH', `/api/share-links/${link.id}`, { password: 'second-secret' });
    expect(set).toMatchObject({ status: 200, body: { hasPassword: true } });
    expect((await v.json('GET', `/api/share/${link.token}`)).status).toBe(401);
    expect((await v.json('POST', `/api/share/${link.token}/unlock`, { password: 'second-secret' })).status).toBe(200);
    expect((await v.json('GET', `/api/share/${link.token}`)).status).toBe(200);
    // Changing it ends that pass too.
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { password: 'third-secret' })).status).toBe(200);
    expect((await v.json('GET', `/api/share/${link.token}`)).status).toBe(401);
    expect((await v.json('POST', `/api/share/${link.token}/unlock`, { password: 'second-secret' })).status).toBe(401);
    const removed = await sharer.json('PATCH', `/api/share-links/${link.id}`, { password: '' });
    expect(removed.body.hasPassword).toBe(false);
    expect((await (await enter(link.token)).json('GET', `/api/share/${link.token}`)).status).toBe(200);
    expect((await logOf(link.id)).filter((e) => e.action === 'edited').map((e) => e.detail)).toEqual([
      `by ${sharerName}: password removed`,
      `by ${sharerName}: password changed`,
      `by ${sharerName}: password set`,
    ]);
  });

  test('expiry: extended, shortened, removed; an expired link can be brought back', async () => {
    const link = await makeLink({ expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { expiresAt: later })).body.expiresAt).toBe(later);
    await server.sql.execute({ sql: 'UPDATE share_links SET expires_at = ? WHERE id = ?', args: [Date.now() - 1000, link.id] });
    expect((await new Session(server.url).get(`/s/${link.token}`)).status).toBe(404);
    const week = new Date(Date.now() + 7 * 86_400_000).toISOString();
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { expiresAt: week })).body).toMatchObject({ state: 'active', expiresAt: week });
    expect((await new Session(server.url).get(`/s/${link.token}`)).status).toBe(200);
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { expiresAt: null })).body.expiresAt).toBeNull();
  });

  test('a changed watermark, items or download option queues new previews; a comment switch does not', async () => {
    const link = await makeLink();
    const jobsOf = async () =>
      (await server.sql.execute({ sql: "SELECT id, media_id FROM jobs WHERE kind = 'watermark' AND link_id = ? ORDER BY id", args: [link.id] })).rows.map((r) => ({
        id: Number(r.id),
        mediaId: Number(r.media_id),
      }));
    const first = await jobsOf();
    expect(first.map((j) => j.mediaId).sort()).toEqual([image.id, still.id].sort());
    const edit = async (body: object) => expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, body)).status).toBe(200);
    await edit({ allowComment: true });
    expect(await jobsOf()).toEqual(first);
    await edit({ watermark: true, watermarkText: 'Draft', watermarkPosition: 'top-left', watermarkOpacity: 40 });
    const second = await jobsOf();
    // One job per version: each earlier job replaced by a newer one.
    expect(second).toHaveLength(2);
    expect(Math.min(...second.map((j) => j.id))).toBeGreaterThan(Math.max(...first.map((j) => j.id)));
    expect(await rowOf(link.id)).toMatchObject({ watermark: 1, watermark_text: 'Draft', watermark_position: 'top-left', watermark_opacity: 40 });
    await edit({ watermarkOpacity: 80 });
    const third = await jobsOf();
    expect(Math.min(...third.map((j) => j.id))).toBeGreaterThan(Math.max(...second.map((j) => j.id)));
    await edit({ mediaIds: [still.id] });
    expect((await jobsOf()).filter((j) => j.mediaId === still.id)[0]!.id).toBeGreaterThan(Math.max(...third.map((j) => j.id)));
  });

  const ONE_YEAR_ON = () => new Date(Date.now() + 400 * 86_400_000).toISOString();
  test.each([
    [{ name: '' }, 'name'],
    [{ name: 'Bad\u202Ename' }, 'name'],
    [{ mediaIds: [] }, 'mediaIds'],
    [{ mediaIds: [987654] }, 'mediaIds'],
    [{ mediaIds: 'all' }, 'mediaIds'],
    [{ password: 'abc' }, 'password'],
    [{ password: null }, 'password'],
    [{ expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'expiresAt'],
    [{ expiresAt: 'next tuesday' }, 'expiresAt'],
    [{ expiresAt: '__year__' }, 'expiresAt'],
    [{ watermark: true }, 'download'],
    [{ watermark: true, download: 'original' }, 'download'],
    [{ download: 'everything' }, 'download'],
    [{ allowComment: 'yes' }, 'allowComment'],
    [{ watermarkOpacity: 5 }, 'watermarkOpacity'],
    [{ watermarkPosition: 'under' }, 'watermarkPosition'],
    [{ watermarkText: 'x'.repeat(121) }, 'watermarkText'],
    [{ surprise: true }, 'body'],
  ])('%j: 400 naming %s, nothing changed', async (body, field) => {
    const link = await makeLink({ download: 'original', allowComment: true });
    const before = { row: await rowOf(link.id), items: await itemsOf(link.id), log: await logOf(link.id) };
    const sent = { ...body, ...((body as any).expiresAt === '__year__' ? { expiresAt: ONE_YEAR_ON() } : {}) };
    const r = await sharer.json('PATCH', `/api/share-links/${link.id}`, sent);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(new RegExp(`^${field === 'body' ? '' : field}`));
    expect({ row: await rowOf(link.id), items: await itemsOf(link.id), log: await logOf(link.id) }).toEqual(before);
  });

  test('items obey the rule of making a link: staff who see only the public site cannot add a private item', async () => {
    const made = await shareOnly.json('POST', '/api/share-links', { name: 'Site only', mediaIds: [still.id] });
    expect(made.status).toBe(201);
    const r = await shareOnly.json('PATCH', `/api/share-links/${made.body.id}`, { mediaIds: [still.id, image.id] });
    expect(r).toMatchObject({ status: 400, body: { message: `mediaIds: No media item ${image.id}` } });
    expect(await itemsOf(made.body.id)).toEqual([still.id]);
    expect((await sharer.json('PATCH', `/api/share-links/${made.body.id}`, { mediaIds: [still.id, image.id] })).status).toBe(200);
  });

  test('a revoked link cannot be edited, given a new address or have its address copied', async () => {
    const link = await makeLink();
    await sharer.json('DELETE', `/api/share-links/${link.id}`);
    expect((await sharer.json('PATCH', `/api/share-links/${link.id}`, { expiresAt: null })).status).toBe(409);
    expect((await sharer.json('POST', `/api/share-links/${link.id}/new-address`)).status).toBe(409);
    const copied = await copyAddress(sharer, link.id);
    expect(copied).toMatchObject({ status: 409, body: { message: expect.stringMatching(/revoked/) } });
    expect(JSON.stringify(copied.body)).not.toContain(link.token);
    expect((await logOf(link.id)).map((e) => e.action)).not.toContain('address copied');
    expect((await new Session(server.url).get(`/s/${link.token}`)).status).toBe(404);
  });
});

describe('share:media alone (issue 40): a link is as private as its most private item', () => {
  test('a link holding a private item is not listed, copied, edited, re-addressed, revoked or logged for them; its visitor still gets no original', async () => {
    // Made by staff who see the whole library: a watermarked, password-protected preview link.
    const link = await makeLink({ watermark: true, download: 'preview', password: 'locked-words' });
    const before = { row: await rowOf(link.id), items: await itemsOf(link.id), log: await logOf(link.id) };
    const list = await shareOnly.json('GET', '/api/share-links');
    expect(list.status).toBe(200);
    expect(list.body.map((l: any) => l.id)).not.toContain(link.id);
    // No link listed to them names the private item.
    expect(JSON.stringify(list.body)).not.toContain(image.title);
    const copied = await copyAddress(shareOnly, link.id);
    expect(copied.status).toBe(404);
    expect(JSON.stringify(copied.body)).not.toContain(link.token);
    // The edit that would hand out the private original, and one that only drops the private item.
    for (const body of [{ watermark: false, download: 'original', password: '' }, { mediaIds: [still.id] }, { name: 'Mine now' }]) {
      expect((await shareOnly.json('PATCH', `/api/share-links/${link.id}`, body)).status, JSON.stringify(body)).toBe(404);
    }
    const readdressed = await shareOnly.json('POST', `/api/share-links/${link.id}/new-address`);
    expect(readdressed.status).toBe(404);
    expect(JSON.stringify(readdressed.body)).not.toMatch(/\/s\//);
    expect((await shareOnly.json('GET', `/api/share-links/${link.id}/log`)).status).toBe(404);
    expect((await shareOnly.json('DELETE', `/api/share-links/${link.id}`)).status).toBe(404);
    expect({ row: await rowOf(link.id), items: await itemsOf(link.id), log: await logOf(link.id) }).toEqual(before);
    // The visitor, with the password, still reaches no clean file of the private item.
    const v = new Session(server.url);
    expect((await v.json('POST', `/api/share/${link.token}/unlock`, { password: 'locked-words' })).status).toBe(200);
    for (const file of [image.url.split('/').pop(), 'full.webp', 'thumb.jpg', 'thumb.webp']) {
      for (const q of ['', '?download=1']) expect((await v.get(`/s/${link.token}/m/${image.id}/${file}${q}`)).status, file + q).toBe(404);
    }
    expect((await v.json('GET', `/api/share/${link.token}`)).body).toMatchObject({ watermark: true, download: 'preview' });
    // Staff who see the library still manage it.
    expect((await sharer.json('GET', '/api/share-links')).body.map((l: any) => l.id)).toContain(link.id);
    expect((await copyAddress(sharer, link.id)).body.url).toBe(link.url);
  });

  test('a link of public items only stays theirs to list and manage', async () => {
    const made = await sharer.json('POST', '/api/share-links', { name: 'Site still', mediaIds: [still.id] });
    expect(made.status).toBe(201);
    tokensSeen.push(new URL(made.body.url).pathname.split('/').pop()!);
    const listed = (await shareOnly.json('GET', '/api/share-links')).body.find((l: any) => l.id === made.body.id);
    expect(listed).toMatchObject({ name: 'Site still', items: [{ id: still.id, title: still.title }] });
    expect((await copyAddress(shareOnly, made.body.id)).body.url).toBe(made.body.url);
    expect((await shareOnly.json('PATCH', `/api/share-links/${made.body.id}`, { name: 'Site still, edited' })).status).toBe(200);
    expect((await shareOnly.json('GET', `/api/share-links/${made.body.id}/log`)).status).toBe(200);
    // Once the item leaves the public site the link is theirs no more.
    expect((await admin.json('PUT', `/api/media/${still.id}`, { showInPortfolio: false })).status).toBe(200);
    try {
      expect((await shareOnly.json('GET', '/api/share-links')).body.map((l: any) => l.id)).not.toContain(made.body.id);
      expect((await copyAddress(shareOnly, made.body.id)).status).toBe(404);
    } finally {
      expect((await admin.json('PUT', `/api/media/${still.id}`, { showInPortfolio: true })).status).toBe(200);
    }
  });
});

describe('gallery links (issue 51): managed by those who manage the gallery, whatever it holds today', () => {
  test('a link of an empty gallery is not listed, copied, edited, re-addressed, revoked or logged for share:media alone, nor with edit:website', async () => {
    const u = await createStaffUser(server, { permissions: ['share:media', 'edit:website'] });
    const websiteSharer = await staffSession(server.url, u.username, u.password);
    const gallery = (await admin.json('POST', '/api/galleries', { title: 'Wedding, not yet shot' })).body;
    // Made while the gallery holds nothing: a watermarked link behind a password.
    const made = await sharer.json('POST', `/api/galleries/${gallery.id}/links`, { name: 'For the couple', password: 'locked-words', watermark: true });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const token = new URL(made.body.url).pathname.split('/').pop()!;
    tokensSeen.push(token);
    const link = { id: made.body.id as number, token };
    const before = { row: await rowOf(link.id), log: await logOf(link.id) };
    for (const s of [shareOnly, websiteSharer]) {
      expect((await s.json('GET', '/api/share-links')).body.map((l: any) => l.id)).not.toContain(link.id);
      const copied = await copyAddress(s, link.id);
      expect(copied.status).toBe(404);
      expect(JSON.stringify(copied.body)).not.toContain(link.token);
      expect((await s.json('PATCH', `/api/share-links/${link.id}`, { watermark: false, password: '' })).status).toBe(404);
      expect((await s.json('POST', `/api/share-links/${link.id}/new-address`)).status).toBe(404);
      expect((await s.json('GET', `/api/share-links/${link.id}/log`)).status).toBe(404);
      expect((await s.json('DELETE', `/api/share-links/${link.id}`)).status).toBe(404);
    }
    expect({ row: await rowOf(link.id), log: await logOf(link.id) }).toEqual(before);
    // Staff who manage the gallery manage its link, before its images arrive and after.
    expect((await copyAddress(sharer, link.id)).body.url).toBe(made.body.url);
    expect((await admin.json('POST', `/api/galleries/${gallery.id}/images`, { mediaIds: [image.id] })).status).toBe(201);
    expect((await sharer.json('GET', '/api/share-links')).body.find((l: any) => l.id === link.id)).toMatchObject({ watermark: true, hasPassword: true, gallery: { id: gallery.id } });
    expect((await copyAddress(sharer, link.id)).body.url).toBe(made.body.url);
  });
});

describe('links made before addresses were kept', () => {
  test('copying answers 409 saying so; a new address opens the same link and the old one is 404', async () => {
    const link = await makeLink({ allowComment: true, name: 'Old link' });
    await server.sql.execute({ sql: 'UPDATE share_links SET token_enc = NULL WHERE id = ?', args: [link.id] });
    const v = await enter(link.token);
    const copied = await copyAddress(sharer, link.id);
    expect(copied.status).toBe(409);
    expect(copied.body.message).toMatch(/cannot be shown again/);
    expect((await sharer.json('GET', '/api/share-links')).body.find((l: any) => l.id === link.id).addressKept).toBe(false);

    const fresh = await sharer.json('POST', `/api/share-links/${link.id}/new-address`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.id).toBe(link.id);
    const token = new URL(fresh.body.url).pathname.split('/').pop()!;
    tokensSeen.push(token);
    expect(token).toMatch(/^[a-z2-7]{40}$/);
    expect(token).not.toBe(link.token);
    expect((await new Session(server.url).get(`/s/${link.token}`)).status).toBe(404);
    // The pass made through the old address ends with it.
    expect((await v.json('GET', `/api/share/${token}`)).status).toBe(401);
    const w = await enter(token);
    expect((await w.json('GET', `/api/share/${token}`)).body).toMatchObject({ name: 'Old link', allowComment: true });
    expect((await copyAddress(sharer, link.id)).body.url).toBe(fresh.body.url);
    expect((await sharer.json('GET', '/api/share-links')).body.find((l: any) => l.id === link.id).addressKept).toBe(true);
    expect((await logOf(link.id)).map((e) => e.action)).toEqual(expect.arrayContaining(['new address', 'address copied']));
  });
});

// Issue 40: a kept address opens only on its own row, unaltered, under this server's key (AES-GCM
// checks the tag and the row's token hash); anything else is 409 and gives no address.
describe('a kept address that does not open', () => {
  /** The token encrypted as link-key.ts does, under `key`, for the row whose token hash is `tokenHash`. */
  const encryptUnder = (key: Buffer, token: string, tokenHash: string) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(tokenHash));
    const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')}`;
  };
  const flipByte = (stored: string, at: (raw: Buffer) => number) => {
    const raw = Buffer.from(stored.slice(3), 'base64');
    raw[at(raw)]! ^= 0x01;
    return `v1:${raw.toString('base64')}`;
  };

  test.each([
    ['copied from another link', async (_link: any, other: any) => String((await rowOf(other.id)).token_enc)],
    ['with one byte of the ciphertext flipped', async (link: any) => flipByte(String((await rowOf(link.id)).token_enc), () => 12)],
    ['with one byte of the tag flipped', async (link: any) => flipByte(String((await rowOf(link.id)).token_enc), (raw) => raw.length - 1)],
    ['made under another key', async (link: any) => encryptUnder(randomBytes(32), link.token, String((await rowOf(link.id)).token_hash))],
  ] as const)('a token_enc %s: copying answers 409, gives no address and logs nothing', async (_name, planted) => {
    const link = await makeLink();
    const other = await makeLink();
    const enc = await planted(link, other);
    expect(enc).not.toBe(String((await rowOf(link.id)).token_enc));
    await server.sql.execute({ sql: 'UPDATE share_links SET token_enc = ? WHERE id = ?', args: [enc, link.id] });
    const copied = await copyAddress(sharer, link.id);
    expect(copied.status).toBe(409);
    expect(copied.body).toEqual({ message: expect.stringMatching(/kept under another server key/) });
    expect((await logOf(link.id)).map((e) => e.action)).not.toContain('address copied');
    // The link itself still opens by its address; only the kept copy is unreadable.
    expect((await new Session(server.url).get(`/s/${link.token}`)).status).toBe(200);
    // The row's own encryption under this key still opens (the planted value was the only fault).
    expect((await copyAddress(sharer, other.id)).body.url).toBe(other.url);
  });
});

describe('the key', () => {
  test('the key file is made once with mode 0600 and reused on restart: copied addresses stay the same', async () => {
    const file = path.join(server.dir, 'share-link.key');
    const stat = fs.statSync(file);
    expect(stat.mode & 0o777).toBe(0o600);
    const key = fs.readFileSync(file, 'utf8');
    expect(key.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toBe('');
    const link = await makeLink();
    await server.kill();
    await server.restart();
    expect(server.output()).not.toContain('Share-link key created');
    expect(fs.readFileSync(file, 'utf8')).toBe(key);
    expect(fs.statSync(file).ino).toBe(stat.ino);
    expect(fs.statSync(file).mtimeMs).toBe(stat.mtimeMs);
    const again = await staffSession(server.url, ADMIN.username, ADMIN.password);
    const copied = await copyAddress(again, link.id);
    expect(copied.body.url.replace(/^https?:\/\/[^/]+/, '')).toBe(new URL(link.url).pathname);
    sharer = await staffSession(server.url, sharerName, 'staff-password-123');
  }, 90_000);

  test('SHARE_LINK_KEY (hex or base64) is used instead of a file; a malformed one stops start-up naming it', async () => {
    await expect(startServer({ env: { SHARE_LINK_KEY: 'not-a-key' } })).rejects.toThrow(/Invalid environment:[\s\S]*SHARE_LINK_KEY: must be 32 bytes/);
    await expect(startServer({ env: { SHARE_LINK_KEY: 'ab'.repeat(31) } })).rejects.toThrow(/SHARE_LINK_KEY: must be 32 bytes/);
    const hex = 'c0ffee'.repeat(10) + 'beef';
    const other = await startServer({ env: { SHARE_LINK_KEY: Buffer.from(hex, 'hex').toString('base64') } });
    try {
      expect(fs.existsSync(path.join(other.dir, 'share-link.key'))).toBe(false);
      const s = await staffSession(other.url, ADMIN.username, ADMIN.password);
      const made = await s.json('POST', '/api/share-links', { name: 'Env key', mediaIds: [(await uploadImage(s)).id] });
      expect((await s.json('POST', `/api/share-links/${made.body.id}/address`)).body.url).toBe(made.body.url);
    } finally {
      await other.stop();
    }
  }, 90_000);

  test('an unreadable, corrupt or lost key file stops start-up with a message naming it', async () => {
    const unreadable = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-key-'));
    fs.mkdirSync(path.join(unreadable, 'share-link.key'));
    await expect(startServer({ dir: unreadable })).rejects.toThrow(/SHARE_LINK_KEY_FILE: the share-link key file .*share-link\.key cannot be read \(EISDIR\)/);
    const corrupt = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-key-'));
    fs.writeFileSync(path.join(corrupt, 'share-link.key'), 'zz'.repeat(32), { mode: 0o600 });
    await expect(startServer({ dir: corrupt })).rejects.toThrow(/SHARE_LINK_KEY_FILE: the share-link key file .*share-link\.key is corrupt/);
    for (const d of [unreadable, corrupt]) fs.rmSync(d, { recursive: true, force: true });
    // This server's key file lost while its database holds encrypted addresses: a new key
    // could not open them, so it does not start (and makes no new key).
    await server.kill();
    fs.rmSync(path.join(server.dir, 'share-link.key'));
    await expect(server.restart()).rejects.toThrow(/SHARE_LINK_KEY_FILE: the share-link key file .*share-link\.key is missing, but \d+ share link address/);
    expect(fs.existsSync(path.join(server.dir, 'share-link.key'))).toBe(false);
  }, 90_000);
});
