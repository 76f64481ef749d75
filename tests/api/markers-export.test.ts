// Issue 30, export notes as markers: staff with view:media export a version's notes as a Resolve
// EDL, FCPXML, Premiere XML or CSV (internal staff notes only when asked); a client exports only
// their own notes, as CSV, never internal ones or another item's; bad requests say why.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, ADMIN, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { createVideo, type MediaFixture } from '../helpers/portal-fixtures.ts';
import { hashPassword } from '../../src/server/auth/password.ts';

let server: TestServer;
let admin: Session;
let viewer: Session; // view:media only
let noView: Session; // staff without view:media
let portal: Session; // a login of the client the film is assigned to
let colleague: Session; // another login of the same client
let other: Session; // a client of another item
let film: MediaFixture;
let otherFilm: MediaFixture;
let empty: MediaFixture;
let filmVersion: number;
let otherVersion: number;
let emptyVersion: number;

const versionOf = async (mediaId: number) => Number((await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [mediaId] })).rows[0]!.id);
const staffUrl = (format: string, extra = '', m = film.id, v = filmVersion) => `/api/media/${m}/versions/${v}/markers?format=${format}${extra}`;
const clientUrl = (format = 'csv', m = film.id, v = filmVersion) => `/api/client/media/${m}/versions/${v}/markers?format=${format}`;
async function get(s: Session, url: string) {
  const res = await s.request('GET', url);
  // Kept byte for byte: Response.text() would drop the CSV's byte-order mark.
  return { status: res.status, headers: res.headers, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer()) };
}

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const v = await createStaffUser(server, { permissions: ['view:media'] });
  viewer = await staffSession(server.url, v.username, v.password);
  const n = await createStaffUser(server, { permissions: ['view:clients'] });
  noView = await staffSession(server.url, n.username, n.password);
  const c = await createClientWithLogin(server, { name: 'Harbour Films', username: 'ana.harbour' });
  const o = await createClientWithLogin(server, { name: 'Other Co' });
  await server.sql.execute({ sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?)', args: [c.clientId, 'ben.harbour', 'ben@harbour.test', await hashPassword('colleague-pass-123')] });
  portal = await clientSession(server.url, c.username, c.password);
  colleague = await clientSession(server.url, 'ben.harbour', 'colleague-pass-123');
  other = await clientSession(server.url, o.username, o.password);
  film = await createVideo(server, { title: 'Harbour Film', clientId: c.clientId, durationSeconds: 20 });
  otherFilm = await createVideo(server, { title: 'Other Film', clientId: o.clientId, durationSeconds: 20 });
  empty = await createVideo(server, { title: 'Quiet Film', clientId: c.clientId, durationSeconds: 20 });
  [filmVersion, otherVersion, emptyVersion] = await Promise.all([versionOf(film.id), versionOf(otherFilm.id), versionOf(empty.id)]);
  // ffprobe's facts of the cut: 25 fps from 01:00:00:00.
  await server.sql.execute({ sql: `UPDATE media_versions SET probe = ? WHERE id = ?`, args: [JSON.stringify({ fps: 25, startTimecode: '01:00:00:00' }), filmVersion] });

  const post = async (s: Session, url: string, body: Record<string, unknown>) => {
    const r = await s.json('POST', url, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  await post(portal, `/api/client/media/${film.id}/timeline-notes`, { mediaId: film.id, noteText: 'Logo, "too" early\nsee the sky', timestampMs: 1500 });
  await post(portal, `/api/client/media/${film.id}/timeline-notes`, { mediaId: film.id, noteText: 'Colour 日本語 warmer', timestampMs: 4000, endMs: 6000 });
  await post(colleague, `/api/client/media/${film.id}/timeline-notes`, { mediaId: film.id, noteText: 'Ben wrote this', timestampMs: 2000 });
  await post(other, `/api/client/media/${otherFilm.id}/timeline-notes`, { mediaId: otherFilm.id, noteText: 'Other item note', timestampMs: 1000 });
  await post(viewer, `/api/media/${film.id}/timeline-notes`, { text: 'Studio answer', timestampMs: 3000 });
  // A share-link visitor's note: in the staff export, never in a client's.
  const link = await admin.json('POST', '/api/share-links', { name: 'For the agency', mediaIds: [film.id], allowComment: true });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  const token = new URL(link.body.url).pathname.split('/').pop()!;
  const guest = new Session(server.url);
  expect((await guest.get(`/s/${token}`)).status).toBe(200);
  expect((await guest.json('PUT', `/api/share/${token}/name`, { name: 'Sam Guest' })).status).toBe(200);
  await post(guest, `/api/share/${token}/media/${film.id}/timeline-notes`, { text: 'Visitor: music too loud', timestampMs: 7000 });
  await post(viewer, `/api/media/${film.id}/timeline-notes`, { text: 'Internal: check the grade', timestampMs: 5000, internal: true });
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

describe('staff export', () => {
  test.each([
    ['edl', 'text/plain', 'Harbour Film v1 notes - Resolve.edl'],
    ['fcpxml', 'application/xml', 'Harbour Film v1 notes - Final Cut.fcpxml'],
    ['premiere', 'application/xml', 'Harbour Film v1 notes - Premiere.xml'],
    ['csv', 'text/csv', 'Harbour Film v1 notes.csv'],
  ])('%s: an attachment with a good file name, every note but the internal one', async (format, type, name) => {
    const res = await get(viewer, staffUrl(format));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    for (const text of ['Logo', 'Colour 日本語 warmer', 'Ben wrote this', 'Studio answer', 'Visitor: music too loud', 'Sam Guest (link: For the agency)']) expect(res.text).toContain(text);
    expect(res.text).not.toContain('check the grade');
    expect(res.text).not.toContain('Other item note');
  });

  test('the EDL places notes on the probed rate from the start timecode; a range is a duration marker', async () => {
    const { text } = await get(viewer, staffUrl('edl'));
    expect(text.startsWith('TITLE: Harbour Film v1 notes\nFCM: NON-DROP FRAME\n\n')).toBe(true);
    expect(text).toContain('001  001      V     C        01:00:01:12 01:00:01:13 01:00:01:12 01:00:01:13  \n');
    expect(text).toMatch(/^ana\.harbour · Open \|C:ResolveColorBlue \|M:Logo, "too" early \/ see the sky \|D:1$/m);
    expect(text).toMatch(/01:00:04:00 01:00:06:00 01:00:04:00 01:00:06:00 {2}\nana\.harbour · Open \|C:ResolveColorBlue \|M:Colour 日本語 warmer \|D:50/);
  });

  test('a resolved note changes colour and state', async () => {
    const notes = (await admin.json('GET', `/api/admin/media/timeline-notes?mediaId=${film.id}`)).body as any[];
    const ben = notes.find((n) => n.noteText === 'Ben wrote this');
    expect((await admin.json('PUT', `/api/admin/media/timeline-notes/${ben.id}/resolved`, { resolved: true })).status).toBe(200);
    const { text } = await get(viewer, staffUrl('edl'));
    expect(text).toContain('Resolved |C:ResolveColorGreen |M:Ben wrote this |D:1');
    expect((await get(viewer, staffUrl('fcpxml'))).text).toMatch(/value="Ben wrote this" completed="1"/);
    await admin.json('PUT', `/api/admin/media/timeline-notes/${ben.id}/resolved`, { resolved: false });
  });

  test('internal staff notes only with internal=1', async () => {
    const res = await get(viewer, staffUrl('csv', '&internal=1'));
    expect(res.text).toContain('Internal: check the grade');
    expect(res.text).toMatch(/,staff,Open,yes,Internal: check the grade,/);
    expect((await get(viewer, staffUrl('csv', '&internal=0'))).text).not.toContain('check the grade');
  });

  test('401 signed out, 403 for staff without view:media, 401 for a client on the staff URL', async () => {
    expect((await get(new Session(server.url), staffUrl('csv'))).status).toBe(401);
    const refused = await get(noView, staffUrl('csv'));
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).message).toBeTruthy();
    expect((await get(portal, staffUrl('csv'))).status).toBe(401);
  });

  test.each([
    ['an unknown format', 'pdf', /^format: Unknown export format "pdf"; one of edl, fcpxml, premiere, csv$/],
    ['no format', '', /^format: Choose an export format/],
  ])('400 for %s, naming format', async (_name, format, message) => {
    const res = await viewer.json('GET', staffUrl(format));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  test('404 for a version of another item, with the reason; 404 for an unknown item', async () => {
    const res = await viewer.json('GET', staffUrl('edl', '', film.id, otherVersion));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`Version not found: version ${otherVersion} is not a version of this media item`);
    expect((await viewer.json('GET', staffUrl('edl', '', 999_999, filmVersion))).body).toEqual({ message: 'Media not found' });
  });

  test.each(['edl', 'fcpxml', 'premiere', 'csv'])('a version with no notes exports a valid empty %s', async (format) => {
    const res = await get(viewer, staffUrl(format, '', empty.id, emptyVersion));
    expect(res.status).toBe(200);
    const expected = {
      edl: (t: string) => expect(t).toBe('TITLE: Quiet Film v1 notes\nFCM: NON-DROP FRAME\n\n'),
      fcpxml: (t: string) => expect(t).toMatch(/<gap name="Gap" offset="0s" duration="20s" start="0s"\/>\n[\s\S]*<\/fcpxml>\n$/),
      premiere: (t: string) => expect(t).toMatch(/<duration>500<\/duration>[\s\S]*<\/sequence>\n<\/xmeml>\n$/),
      csv: (t: string) => expect(t).toBe('\ufeff#,Timecode in,Timecode out,Duration (frames),Start (ms),End (ms),Author,Source,State,Internal,Note,Created\r\n'),
    }[format]!;
    expected(res.text);
    expect(res.text).not.toMatch(/<marker|ResolveColor/);
  });
});

describe('client export', () => {
  test('only their own notes, as CSV, never internal ones or a colleague\'s, the studio\'s or another item\'s', async () => {
    const res = await get(portal, clientUrl());
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('filename="Harbour Film v1 notes.csv"');
    expect(res.text.startsWith('\ufeff#,')).toBe(true);
    const rows = res.text.slice(1).split('\r\n');
    expect(rows[0]).toBe('#,Timecode in,Timecode out,Duration (frames),Start (ms),End (ms),Author,Source,State,Internal,Note,Created');
    expect(res.text).toContain('\r\n1,01:00:01:12,01:00:01:13,1,1500,,ana.harbour,client,Open,no,"Logo, ""too"" early\r\nsee the sky",');
    expect(res.text).toContain('Colour 日本語 warmer');
    for (const text of ['Ben wrote this', 'Studio answer', 'check the grade', 'Other item note', 'Visitor']) expect(res.text).not.toContain(text);
    // Asking for internal notes changes nothing.
    expect((await get(portal, clientUrl() + '&internal=1')).text).toBe(res.text);
  });

  test('the colleague gets theirs only', async () => {
    const { text } = await get(colleague, clientUrl());
    expect(text).toContain('Ben wrote this');
    expect(text).not.toContain('Logo');
  });

  test('a format other than CSV is refused, naming format; no format means CSV', async () => {
    const res = await portal.json('GET', clientUrl('edl'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('format: Unknown export format "edl"; one of csv');
    expect((await get(portal, `/api/client/media/${film.id}/versions/${filmVersion}/markers`)).status).toBe(200);
  });

  test('404 for another client\'s item, and for a version of another item', async () => {
    const res = await other.json('GET', clientUrl());
    expect(res.status).toBe(404);
    const wrong = await portal.json('GET', clientUrl('csv', film.id, otherVersion));
    expect(wrong.status).toBe(404);
    expect(wrong.body.message).toMatch(/is not a version of this media item/);
    expect((await portal.json('GET', clientUrl('csv', otherFilm.id, otherVersion))).status).toBe(404);
  });

  test('401 signed out and for staff on the client URL', async () => {
    expect((await get(new Session(server.url), clientUrl())).status).toBe(401);
    expect((await get(admin, clientUrl())).status).toBe(401);
  });

  test('a version with no notes exports the header row alone', async () => {
    const res = await get(portal, clientUrl('csv', empty.id, emptyVersion));
    expect(res.status).toBe(200);
    expect(res.text.split('\r\n').filter(Boolean)).toHaveLength(1);
  });
});
