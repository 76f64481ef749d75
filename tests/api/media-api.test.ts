// Media API besides upload: list, featured/portfolio, edit, delete, client links, and the
// admin feedback / timeline-note lists, each with its permission matrix.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, storedNames, type TestServer } from '../helpers/server.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { ACTORS, adminSession, createClientWithLogin, createStaffUser, matrixFromDb, type Actor } from '../helpers/accounts.ts';
import { folderFiles, form, sampleImage, sampleVideo, upload, uploadImage } from '../helpers/media-uploads.ts';
import { PROJECT_STAGES } from '../../src/shared/stages.ts';

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  // Folder contents are asserted here; the worker's proxies are tested in video-processing.test.ts.
  server = await startServer({ env: { WORKER: 'off' } });
  admin = await adminSession(server.url);
});
afterAll(() => server?.stop());

const one = async (sql: string, args: (string | number | null)[] = []) => (await server.sql.execute({ sql, args })).rows[0];
const siteVersion = async () => Number((await one('SELECT version FROM site_state WHERE id = 1'))!.version);

async function addFeedbackAndNote(mediaId: number, clientUserId: number) {
  await server.sql.execute({ sql: 'INSERT INTO client_feedback (media_id, client_user_id, feedback_text, rating) VALUES (?, ?, ?, ?)', args: [mediaId, clientUserId, 'Lovely grade', 4] });
  await server.sql.execute({ sql: 'INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, note_text) VALUES (?, ?, ?, ?)', args: [mediaId, clientUserId, 12, 'Cut here'] });
  await server.sql.execute({ sql: 'INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, note_text) VALUES (?, ?, ?, ?)', args: [mediaId, clientUserId, 3, 'Logo too small'] });
}

describe('GET /api/media', () => {
  test('lists every item newest first with clients, tags and review/note counts', async () => {
    const a = await uploadImage(admin, { title: 'Older', tags: 'corporate, interview' });
    const b = await uploadImage(admin, { title: 'Newer' });
    const c = await createClientWithLogin(server, { name: 'Aurora' });
    expect((await admin.json('POST', `/api/media/${a.id}/clients/${c.clientId}`)).status).toBe(201);
    await addFeedbackAndNote(a.id, c.clientUserId);
    const res = await admin.json('GET', '/api/media');
    expect(res.status).toBe(200);
    const ids = res.body.map((m: any) => m.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    const item = res.body.find((m: any) => m.id === a.id);
    expect(item).toMatchObject({ title: 'Older', tags: ['corporate', 'interview'], feedbackCount: 1, noteCount: 2, assignedClients: [{ id: c.clientId, name: 'Aurora', email: c.email }] });
    expect(res.body.find((m: any) => m.id === b.id)).toMatchObject({ feedbackCount: 0, noteCount: 0, assignedClients: [] });
    expect(item).not.toHaveProperty('storageKey');
  });

  // SQLite writes the list's JSON itself (for the cold rebuild's speed); the single-item answer
  // is built from row objects. Both must describe an item identically, awkward values included.
  test('each entry equals the single-item answer, with awkward text, numbers, flags and several clients', async () => {
    const m = await uploadImage(admin, { title: 'Plain', tags: 'b-roll, "quoted"', projectStage: 'production', notes: 'n' });
    const title = 'Quote " back\\slash\nnew line\ttab \u0001 \u007f é 🎬 \u2028 </script>';
    await server.sql.execute({
      sql: 'UPDATE media SET title = ?, notes = ?, duration_seconds = ?, width = 1920, height = 1080, is_featured = 1, show_in_portfolio = 1, created_at = ?, uploaded_at = ? WHERE id = ?',
      args: [title, 'Notes with "quotes" and \\ and \r\n', 0.1 + 0.2, Date.UTC(2031, 0, 2, 3, 4, 5, 7), Date.UTC(2031, 0, 2, 3, 4, 5, 999), m.id],
    });
    const zed = await createClientWithLogin(server, { name: 'Zed "Z" Films' });
    const abe = await createClientWithLogin(server, { name: 'Abe\nStudio' });
    expect((await admin.json('POST', `/api/media/${m.id}/clients/${zed.clientId}`)).status).toBe(201);
    expect((await admin.json('POST', `/api/media/${m.id}/clients/${abe.clientId}`)).status).toBe(201);
    await addFeedbackAndNote(m.id, zed.clientUserId);
    const single = await admin.json('POST', `/api/media/${m.id}/clients/${abe.clientId}`); // already linked: 200 with the item
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({
      title,
      durationSeconds: 0.1 + 0.2,
      isFeatured: true,
      showInPortfolio: true,
      createdAt: '2031-01-02T03:04:05.007Z',
      uploadedAt: '2031-01-02T03:04:05.999Z',
      feedbackCount: 1,
      noteCount: 2,
      assignedClients: [{ id: abe.clientId }, { id: zed.clientId }],
    });
    const res = await admin.json('GET', '/api/media');
    expect(res.status).toBe(200);
    expect(res.body[0].id).toBe(m.id); // newest by created_at
    expect(res.body[0]).toStrictEqual(single.body);
    expect(Object.keys(res.body[0])).toEqual(Object.keys(single.body));
    const plain = res.body.find((x: any) => x.id !== m.id && x.assignedClients.length === 0);
    expect(plain).toMatchObject({ isFeatured: false, feedbackCount: 0, noteCount: 0, assignedClients: [] });
  });
});

describe('GET /api/media/featured and /portfolio (public)', () => {
  test('return only flagged items, to anyone', async () => {
    const f = await uploadImage(admin, { title: 'Feat', isFeatured: 'true' });
    const p = await uploadImage(admin, { title: 'Port', showInPortfolio: 'true' });
    const n = await uploadImage(admin, { title: 'Neither' });
    const anon = new Session(server.url);
    const featured = await anon.json('GET', '/api/media/featured');
    const portfolio = await anon.json('GET', '/api/media/portfolio');
    expect(featured.status).toBe(200);
    expect(portfolio.status).toBe(200);
    const fIds = featured.body.map((m: any) => m.id);
    const pIds = portfolio.body.map((m: any) => m.id);
    expect(fIds).toContain(f.id);
    expect(fIds).not.toContain(p.id);
    expect(fIds).not.toContain(n.id);
    expect(pIds).toContain(p.id);
    expect(pIds).not.toContain(f.id);
    expect(featured.body[0]).not.toHaveProperty('notes');
    expect(featured.body[0]).not.toHaveProperty('assignedClients');
  });
});

describe('PUT /api/media/{id}', () => {
  test('takes every stage of the one list (issue 53), in JSON and in the upload form', async () => {
    const m = await uploadImage(admin, { title: 'Staged', projectStage: 'review' });
    expect(m.projectStage).toBe('review');
    for (const stage of PROJECT_STAGES) {
      const res = await admin.json('PUT', `/api/media/${m.id}`, { projectStage: stage });
      expect(res.status, stage).toBe(200);
      expect(res.body.projectStage).toBe(stage);
    }
  });

  test('JSON changes only the given fields', async () => {
    const m = await uploadImage(admin, { title: 'Before', notes: 'keep me', tags: 'a, b', projectStage: 'concept' });
    const res = await admin.json('PUT', `/api/media/${m.id}`, { title: 'After' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'After', notes: 'keep me', tags: ['a', 'b'], projectStage: 'concept', isFeatured: false });
  });

  test('null clears stage and client; tags are trimmed and de-duplicated', async () => {
    const c = await createClientWithLogin(server);
    const m = await uploadImage(admin, { title: 'X', projectStage: 'production', clientId: String(c.clientId) });
    const res = await admin.json('PUT', `/api/media/${m.id}`, { projectStage: null, clientId: null, tags: [' music video ', 'Music Video', 'documentary', ''] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ projectStage: null, clientId: null, tags: ['music video', 'documentary'] });
  });

  test('setting a client also assigns it', async () => {
    const c = await createClientWithLogin(server);
    const m = await uploadImage(admin);
    const res = await admin.json('PUT', `/api/media/${m.id}`, { clientId: c.clientId, projectStage: 'review' });
    expect(res.status).toBe(200);
    expect(res.body.clientId).toBe(c.clientId);
    expect(res.body.assignedClients.map((x: any) => x.id)).toEqual([c.clientId]);
  });

  test('flag changes bump the site version and show on the public lists', async () => {
    const m = await uploadImage(admin);
    const v0 = await siteVersion();
    expect((await admin.json('PUT', `/api/media/${m.id}`, { isFeatured: true, showInPortfolio: true })).status).toBe(200);
    const v1 = await siteVersion();
    expect(v1).toBeGreaterThan(v0);
    expect((await admin.json('GET', '/api/media/featured')).body.map((x: any) => x.id)).toContain(m.id);
    expect((await admin.json('PUT', `/api/media/${m.id}`, { title: 'Public title change' })).status).toBe(200);
    expect(await siteVersion()).toBeGreaterThan(v1);
    expect((await admin.json('PUT', `/api/media/${m.id}`, { isFeatured: false, showInPortfolio: false })).status).toBe(200);
    expect((await admin.json('GET', '/api/media/portfolio')).body.map((x: any) => x.id)).not.toContain(m.id);
  });

  test('a private item edit does not bump the site version', async () => {
    const m = await uploadImage(admin);
    const v0 = await siteVersion();
    expect((await admin.json('PUT', `/api/media/${m.id}`, { notes: 'private note' })).status).toBe(200);
    expect(await siteVersion()).toBe(v0);
  });

  test.each([
    [{ title: '' }, 'title'],
    [{ title: 42 }, 'title'],
    [{ projectStage: 'filming' }, 'projectStage'],
    [{ tags: 'a,b' }, 'tags'],
    [{ isFeatured: 'yes' }, 'isFeatured'],
    [{ clientId: 'abc' }, 'clientId'],
    [{ clientId: 999999 }, 'client'],
    [{ storageKey: 'x' }, 'storageKey'],
    [{ notes: 'x'.repeat(5001) }, 'notes'],
  ])('rejects %o with 400 naming %s', async (body, field) => {
    const m = await uploadImage(admin, { title: 'Unchanged' });
    const res = await admin.json('PUT', `/api/media/${m.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    const after = await one('SELECT title FROM media WHERE id = ?', [m.id]);
    expect(after!.title).toBe('Unchanged');
  });

  test('an API caller\'s "final" (the documents\' Edit tab stage) is taken and stored as "completed" (issue 53)', async () => {
    const m = await uploadImage(admin, { title: 'Final cut' });
    const res = await admin.json('PUT', `/api/media/${m.id}`, { projectStage: 'final' });
    expect(res.status).toBe(200);
    expect((await one('SELECT project_stage FROM media WHERE id = ?', [m.id]))!.project_stage).toBe('completed');
  });

  test('malformed JSON is 400', async () => {
    const m = await uploadImage(admin);
    const res = await admin.request('PUT', `/api/media/${m.id}`, '{"title":', { 'Content-Type': 'application/json' });
    expect(res.status).toBe(400);
  });

  test.each(['999999', 'abc', '0', '1.5'])('unknown or malformed id %s is 404', async (id) => {
    expect((await admin.json('PUT', `/api/media/${id}`, { title: 'x' })).status).toBe(404);
    expect((await admin.json('DELETE', `/api/media/${id}`)).status).toBe(404);
  });

  test('multipart with a posterFile replaces the poster under a new URL and applies the fields', async () => {
    const up = await upload(admin, { title: 'Clip' }, { data: sampleVideo('mp4'), name: 'c.mp4' });
    expect(up.status).toBe(201);
    const fd = form({ title: 'Clip with poster', tags: 'music video, night', isFeatured: 'true' });
    fd.append('posterFile', new Blob([new Uint8Array(await sampleImage('jpeg', 600, 300))]), 'poster.jpg');
    const res = await admin.request('PUT', `/api/media/${up.body.id}`, fd);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ title: 'Clip with poster', tags: ['music video', 'night'], isFeatured: true, durationSeconds: 3 });
    expect(body.posterUrl).toMatch(/poster\.jpg\?v=\d+$/);
    expect(body.posterUrl).not.toBe(up.body.posterUrl);
    const img = await admin.get(body.posterUrl);
    const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([600, 300]);
    expect(folderFiles(server.mediaDir, body.url).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  test('multipart without a poster applies the text fields (tags as a comma string)', async () => {
    const m = await uploadImage(admin, { title: 'Form edit', notes: 'stays' });
    const res = await admin.request('PUT', `/api/media/${m.id}`, form({ title: 'Form edited', tags: 'a, b , a', projectStage: '', showInPortfolio: 'true' }));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ title: 'Form edited', tags: ['a', 'b'], projectStage: null, showInPortfolio: true, notes: 'stays' });
  });

  test('multipart poster: not an image is 415, on an image item 400; nothing changes', async () => {
    const up = await upload(admin, { title: 'Clip 2' }, { data: sampleVideo('mp4'), name: 'c.mp4' });
    const bad = form({ title: 'Changed?' });
    bad.append('posterFile', new Blob([Buffer.from('just some text, not an image')]), 'p.jpg');
    expect((await admin.request('PUT', `/api/media/${up.body.id}`, bad)).status).toBe(415);
    const img = await uploadImage(admin, { title: 'Still' });
    const onImage = form({ title: 'Changed?' });
    onImage.append('posterFile', new Blob([new Uint8Array(await sampleImage('png', 50, 50))]), 'p.png');
    const r = await admin.request('PUT', `/api/media/${img.id}`, onImage);
    expect(r.status).toBe(400);
    expect((await one('SELECT title FROM media WHERE id = ?', [up.body.id]))!.title).toBe('Clip 2');
    expect((await one('SELECT title FROM media WHERE id = ?', [img.id]))!.title).toBe('Still');
    for (const u of [up.body.url, img.url]) expect(folderFiles(server.mediaDir, u).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});

describe('DELETE /api/media/{id}', () => {
  test('removes the row, links, feedback, notes and every file, and detaches settings', async () => {
    const m = await uploadImage(admin, { title: 'Doomed', isFeatured: 'true' });
    const c = await createClientWithLogin(server);
    await admin.json('POST', `/api/media/${m.id}/clients/${c.clientId}`);
    await addFeedbackAndNote(m.id, c.clientUserId);
    await server.sql.execute({ sql: "UPDATE website_settings SET background_image_id = ? WHERE section = 'hero'", args: [m.id] });
    await server.sql.execute({ sql: 'UPDATE branding_settings SET logo_light_image_id = ?, favicon_image_id = ?, open_graph_image_id = ? WHERE id = 1', args: [m.id, m.id, m.id] });
    await server.sql.execute({ sql: 'UPDATE seo_settings SET open_graph_image_id = ?, twitter_image_id = ? WHERE id = 1', args: [m.id, m.id] });
    expect((await storedNames(server, m.url.split('/')[2]!)).length).toBe(4);
    const v0 = await siteVersion();

    const res = await admin.json('DELETE', `/api/media/${m.id}`);
    expect(res.status).toBe(200);
    expect(await siteVersion()).toBeGreaterThan(v0);
    for (const t of ['media WHERE id', 'media_clients WHERE media_id', 'client_feedback WHERE media_id', 'timeline_notes WHERE media_id']) {
      expect(Number((await one(`SELECT count(*) AS n FROM ${t} = ?`, [m.id]))!.n), t).toBe(0);
    }
    expect((await one("SELECT background_image_id AS x FROM website_settings WHERE section = 'hero'"))!.x).toBeNull();
    expect(await one('SELECT logo_light_image_id, favicon_image_id, open_graph_image_id FROM branding_settings WHERE id = 1')).toMatchObject({ logo_light_image_id: null, favicon_image_id: null, open_graph_image_id: null });
    expect(await one('SELECT open_graph_image_id, twitter_image_id FROM seo_settings WHERE id = 1')).toMatchObject({ open_graph_image_id: null, twitter_image_id: null });
    expect(fs.existsSync(path.join(server.mediaDir, m.url.split('/')[2]))).toBe(false);
    expect(await storedNames(server, m.url.split('/')[2]!)).toEqual([]);
    expect((await admin.get(m.url)).status).toBe(404);
    expect((await admin.json('DELETE', `/api/media/${m.id}`)).status).toBe(404);
    expect((await one('SELECT count(*) AS n FROM clients WHERE id = ?', [c.clientId]))!.n).toBe(1);
  });
});

describe('client links', () => {
  test('assign (201, then 200), list, remove (then 404)', async () => {
    const m = await uploadImage(admin);
    const c = await createClientWithLogin(server, { name: 'Linked Ltd' });
    const a = await admin.json('POST', `/api/media/${m.id}/clients/${c.clientId}`);
    expect(a.status).toBe(201);
    expect(a.body.assignedClients).toEqual([{ id: c.clientId, name: 'Linked Ltd', email: c.email }]);
    expect((await admin.json('POST', `/api/media/${m.id}/clients/${c.clientId}`)).status).toBe(200);
    expect(Number((await one('SELECT count(*) AS n FROM media_clients WHERE media_id = ?', [m.id]))!.n)).toBe(1);
    const d = await admin.json('DELETE', `/api/media/${m.id}/clients/${c.clientId}`);
    expect(d.status).toBe(200);
    expect(d.body.assignedClients).toEqual([]);
    expect((await admin.json('DELETE', `/api/media/${m.id}/clients/${c.clientId}`)).status).toBe(404);
  });

  test('removing the item’s own client also clears media.clientId', async () => {
    const c = await createClientWithLogin(server);
    const m = await uploadImage(admin, { clientId: String(c.clientId) });
    const d = await admin.json('DELETE', `/api/media/${m.id}/clients/${c.clientId}`);
    expect(d.status).toBe(200);
    expect(d.body.clientId).toBeNull();
  });

  test.each([
    ['unknown media', '999999', 'ok'],
    ['unknown client', 'ok', '999999'],
    ['malformed media', 'abc', 'ok'],
    ['malformed client', 'ok', '-1'],
  ])('%s is 404', async (_l, mid, cid) => {
    const m = await uploadImage(admin);
    const c = await createClientWithLogin(server);
    const url = `/api/media/${mid === 'ok' ? m.id : mid}/clients/${cid === 'ok' ? c.clientId : cid}`;
    expect((await admin.json('POST', url)).status).toBe(404);
    expect((await admin.json('DELETE', url)).status).toBe(404);
  });
});

describe('GET /api/admin/media/feedback and /timeline-notes', () => {
  test('carry the media title and client username; notes in timestamp order; ?mediaId narrows', async () => {
    const m = await uploadImage(admin, { title: 'Reviewed film' });
    const other = await uploadImage(admin, { title: 'Other' });
    const c = await createClientWithLogin(server, { username: 'reviewer.one' });
    await addFeedbackAndNote(m.id, c.clientUserId);
    await addFeedbackAndNote(other.id, c.clientUserId);
    const fb = await admin.json('GET', `/api/admin/media/feedback?mediaId=${m.id}`);
    expect(fb.status).toBe(200);
    expect(fb.body).toEqual([
      expect.objectContaining({ mediaId: m.id, mediaTitle: 'Reviewed film', clientUserId: c.clientUserId, clientUsername: 'reviewer.one', feedbackText: 'Lovely grade', rating: 4 }),
    ]);
    const notes = await admin.json('GET', `/api/admin/media/timeline-notes?mediaId=${m.id}`);
    expect(notes.body.map((n: any) => [n.timestampSeconds, n.noteText, n.mediaTitle, n.clientUsername])).toEqual([
      [3, 'Logo too small', 'Reviewed film', 'reviewer.one'],
      [12, 'Cut here', 'Reviewed film', 'reviewer.one'],
    ]);
    const all = await admin.json('GET', '/api/admin/media/feedback');
    expect(all.body.map((f: any) => f.mediaId)).toEqual(expect.arrayContaining([m.id, other.id]));
    expect((await admin.json('GET', '/api/admin/media/timeline-notes?mediaId=abc')).status).toBe(404);
  });
});

describe('permissions', () => {
  let s: Record<Actor, Session>;
  let clientId: number;
  beforeAll(async () => {
    // One staff user per permission under test, plus the shared actors.
    const m = await matrixFromDb(server, 'view:media');
    s = m.sessions;
    clientId = m.client.clientId;
  });

  const refusal: Partial<Record<Actor, number>> = { anonymous: 401, client: 401, 'staff without it': 403 };

  async function sessionsFor(permission: string): Promise<Record<Actor, Session>> {
    if (permission === 'view:media') return s;
    const m = await matrixFromDb(server, permission);
    return m.sessions;
  }

  test.each([
    ['GET /api/media', 'view:media', 200],
    ['GET /api/admin/media/feedback', 'view:media', 200],
    ['GET /api/admin/media/timeline-notes', 'view:media', 200],
  ])('%s needs %s', async (call, permission, okStatus) => {
    const sessions = await sessionsFor(permission);
    const [method, url] = call.split(' ') as [string, string];
    for (const actor of ACTORS) {
      const res = await sessions[actor].json(method, url);
      expect(res.status, actor).toBe(refusal[actor] ?? okStatus);
    }
  });

  test('GET /api/media also opens to edit:website alone (the website media pickers), not to other media permissions', async () => {
    const website = await createStaffUser(server, { permissions: ['edit:website'] });
    const websiteSession = await staffSession(server.url, website.username, website.password);
    const res = await websiteSession.json('GET', '/api/media');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const neither = await createStaffUser(server, { permissions: ['upload:media', 'edit:media', 'assign:client', 'view:clients'] });
    const refused = await (await staffSession(server.url, neither.username, neither.password)).json('GET', '/api/media');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/view:media or edit:website/);
    // The widening is for the list only: the review lists stay view:media.
    expect((await websiteSession.json('GET', '/api/admin/media/feedback')).status).toBe(403);
  });

  test.each(['/api/media/featured', '/api/media/portfolio'])('%s is public', async (url) => {
    for (const actor of ACTORS) expect((await s[actor].json('GET', url)).status, actor).toBe(200);
  });

  test('PUT and DELETE need edit:media', async () => {
    const sessions = await sessionsFor('edit:media');
    for (const actor of ACTORS) {
      const m = await uploadImage(admin, { title: 'Perm' });
      const put = await sessions[actor].json('PUT', `/api/media/${m.id}`, { title: `Edited by ${actor}` });
      expect(put.status, `PUT ${actor}`).toBe(refusal[actor] ?? 200);
      const del = await sessions[actor].json('DELETE', `/api/media/${m.id}`);
      expect(del.status, `DELETE ${actor}`).toBe(refusal[actor] ?? 200);
      expect(Number((await one('SELECT count(*) AS n FROM media WHERE id = ?', [m.id]))!.n)).toBe(refusal[actor] ? 1 : 0);
    }
  });

  test('client links need assign:client', async () => {
    const sessions = await sessionsFor('assign:client');
    for (const actor of ACTORS) {
      const m = await uploadImage(admin);
      const post = await sessions[actor].json('POST', `/api/media/${m.id}/clients/${clientId}`);
      expect(post.status, `POST ${actor}`).toBe(refusal[actor] ?? 201);
      if (refusal[actor]) await admin.json('POST', `/api/media/${m.id}/clients/${clientId}`);
      const del = await sessions[actor].json('DELETE', `/api/media/${m.id}/clients/${clientId}`);
      expect(del.status, `DELETE ${actor}`).toBe(refusal[actor] ?? 200);
    }
  });
});

describe('scale', () => {
  // How fast the list is (cache hits and the rebuild after an edit) is measured by
  // bench/admin-lists.mjs; this checks the 10,000-item answer is complete and right.
  test('GET /api/media lists 10,000 items with their clients and review counts', async () => {
    const c = await createClientWithLogin(server);
    const values: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const key = `f${i.toString(16).padStart(31, '0')}`;
      values.push(`('Bulk ${i}', 'image', '${key}', '/media/${key}/original.jpg', 'b.jpg', 1000, 'image/jpeg', '["corporate","bulk"]')`);
    }
    await server.sql.execute(`INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, tags) VALUES ${values.join(',')}`);
    await server.sql.execute({ sql: "INSERT INTO media_clients (media_id, client_id) SELECT id, ? FROM media WHERE title LIKE 'Bulk %'", args: [c.clientId] });
    await server.sql.execute({ sql: "INSERT INTO client_feedback (media_id, client_user_id, feedback_text, rating) SELECT id, ?, 'ok', 5 FROM media WHERE title LIKE 'Bulk %' AND id % 3 = 0", args: [c.clientUserId] });
    const res = await admin.json('GET', '/api/media');
    expect(res.status).toBe(200);
    const bulk = res.body.filter((m: any) => m.title.startsWith('Bulk '));
    expect(bulk).toHaveLength(10_000);
    // Newest first, ties (one INSERT, one timestamp) by id, newest id first.
    const outOfOrder = res.body.findIndex((m: any, i: number) => {
      const prev = res.body[i - 1];
      return prev && (prev.createdAt < m.createdAt || (prev.createdAt === m.createdAt && prev.id < m.id));
    });
    expect(outOfOrder).toBe(-1);
    for (const m of bulk) {
      expect(m.assignedClients).toEqual([{ id: c.clientId, name: c.name, email: c.email }]);
      expect(m.feedbackCount).toBe(m.id % 3 === 0 ? 1 : 0);
      expect(m.tags).toEqual(['corporate', 'bulk']);
    }
  });
});
