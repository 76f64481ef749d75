// Notes pinned to a caption cue (issue 54 item 3): a client's, a staff member's and a link
// guest's note names a track of its version and gets the cue shown at its time (words and times
// kept with the note), optionally with a wording; staff accept a wording in one click as the
// track's next revision (author, diff, every player), once; a cue changed since, a deleted track,
// bad input and people without edit:media are refused with nothing written; the caption travels
// in the NLE marker exports.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser, expectStatus } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { srt, uploadCaption, vttCues } from '../helpers/captions.ts';
import { enterLink } from '../helpers/proofing.ts';

let server: TestServer;
let admin: Session;
let client: Session;
let film: { mediaId: number; versionId: number; trackId: number };
let other: { mediaId: number; versionId: number; trackId: number };

const CUES: [number, number, string][] = [
  [1000, 2000, 'Welcome to the <i>harbour</i>.'],
  [2500, 4000, 'The boats leave at dawn'],
  [5000, 6000, 'Gulls follow them out'],
];

async function filmWithTrack(title: string, clientId: number) {
  const v = await createVideo(server, { title, durationSeconds: 60, clientId });
  const versionId = Number((await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [v.id] })).rows[0]!.id);
  const up = await uploadCaption(admin, v.id, versionId, srt(CUES), { language: 'en', label: 'English', kind: 'subtitles' });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  return { mediaId: v.id, versionId, trackId: up.body.track.id as number };
}

const clientNote = (body: Record<string, unknown>, on = film) =>
  client.json('POST', `/api/client/media/${on.mediaId}/timeline-notes`, { mediaId: on.mediaId, noteText: 'About this line', ...body });
const staffNote = (body: Record<string, unknown>, on = film) => admin.json('POST', `/api/media/${on.mediaId}/timeline-notes`, { text: 'Studio note', ...body });
const accept = (s: Session, noteId: number, source?: 'link') => s.json('POST', `/api/admin/media/timeline-notes/${noteId}/accept-proposal`, source ? { source } : {});
const count = async (table: string) => Number((await server.sql.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
const revisions = async (trackId: number) => Number((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM caption_revisions WHERE track_id = ?', args: [trackId] })).rows[0]!.n);
const cueTexts = async (trackId: number) => ((await expectStatus(admin.json('GET', `/api/media/${film.mediaId}/captions/${trackId}/cues`))).cues as { text: string }[]).map((c) => c.text);
const adminNotes = async (mediaId: number) => expectStatus(admin.json('GET', `/api/admin/media/timeline-notes?mediaId=${mediaId}`));

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const c = await createClientWithLogin(server);
  client = await clientSession(server.url, c.username, c.password);
  film = await filmWithTrack('Harbour cut', c.clientId);
  other = await filmWithTrack('Another cut', c.clientId);
}, 60_000);
afterAll(() => server?.stop());

describe('pinning a note to the cue shown', () => {
  test('a client’s note at 3.1 s pins the cue shown then, with its words and times, and its wording; staff and the client see it with the note', async () => {
    const r = await clientNote({ timestampMs: 3100, cueTrackId: film.trackId, proposal: 'The boats leave at first light' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const cue = { trackId: film.trackId, trackLabel: 'English', startMs: 2500, endMs: 4000, text: 'The boats leave at dawn', proposal: 'The boats leave at first light', acceptedRevision: null, acceptedAt: null };
    expect(r.body.cue).toEqual({ id: expect.any(Number), ...cue });
    const listed = (await adminNotes(film.mediaId)).find((n: any) => n.id === r.body.id && n.source === 'client');
    expect(listed.cue).toEqual(r.body.cue);
    const own = (await expectStatus(client.json('GET', '/api/client/media/timeline-notes'))).find((n: any) => n.id === r.body.id);
    expect(own.cue).toEqual(r.body.cue);
  });

  test('a cue shows from its first frame: half a frame before its start pins it; its end does not; styling is dropped from the words kept', async () => {
    const early = await staffNote({ timestampMs: 990, cueTrackId: film.trackId });
    expect(early.status, JSON.stringify(early.body)).toBe(201);
    expect(early.body.cue).toMatchObject({ startMs: 1000, endMs: 2000, text: 'Welcome to the harbour.', proposal: null });
    const after = await staffNote({ timestampMs: 2000, cueTrackId: film.trackId });
    expect(after.status).toBe(400);
    expect(after.body.message).toBe('cueTrackId: No cue of English shows at 00:00:02.000');
  });

  test('a note without a track is a note as before (no cue)', async () => {
    const r = await clientNote({ timestampMs: 3100 });
    expect(r.status).toBe(201);
    expect(r.body.cue).toBeNull();
  });

  test.each([
    ['a track of another item', () => ({ timestampMs: 3100, cueTrackId: other.trackId }), 'cueTrackId: That caption track is not on the version the note is about'],
    ['a track that does not exist', () => ({ timestampMs: 3100, cueTrackId: 999_999 }), 'cueTrackId: That caption track is not on the version the note is about'],
    ['a moment with no cue', () => ({ timestampMs: 4500, cueTrackId: film.trackId }), 'cueTrackId: No cue of English shows at 00:00:04.500'],
    ['a wording without a cue', () => ({ timestampMs: 3100, proposal: 'Words' }), 'proposal: pin the note to a caption cue (cueTrackId) to propose a wording'],
    ['an empty wording', () => ({ timestampMs: 3100, cueTrackId: film.trackId, proposal: '   ' }), 'Proposed wording is required'],
    ['a wording with a bidi override', () => ({ timestampMs: 3100, cueTrackId: film.trackId, proposal: 'boats \u202Eevil' }), undefined],
    ['a wording of 1,001 characters', () => ({ timestampMs: 3100, cueTrackId: film.trackId, proposal: 'x'.repeat(1001) }), undefined],
  ])('refused, nothing written: %s', async (_what, body, message) => {
    const [notes, pins] = [await count('timeline_notes'), await count('note_cues')];
    const r = await clientNote(body());
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    if (message) expect(r.body.message).toContain(message);
    else expect(r.body.message).toMatch(/^proposal|Proposed wording/);
    expect([await count('timeline_notes'), await count('note_cues')]).toEqual([notes, pins]);
  });
});

describe('accepting a proposed wording', () => {
  test('staff accept: the track’s next revision has the cue’s new words (the others as they were), by the staff member; the note says accepted; a second accept is refused', async () => {
    const note = await expectStatus(clientNote({ timestampMs: 5200, cueTrackId: film.trackId, proposal: 'Gulls follow them <i>out to sea</i>' }), 201);
    const before = await revisions(film.trackId);
    const r = await accept(admin, note.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ proposal: 'Gulls follow them <i>out to sea</i>', acceptedRevision: before + 1, acceptedAt: expect.any(String) });
    expect(await revisions(film.trackId)).toBe(before + 1);
    const texts = await cueTexts(film.trackId);
    expect(texts).toContain('Gulls follow them <i>out to sea</i>');
    expect(texts).toContain('Welcome to the <i>harbour</i>.');
    const state = await expectStatus(admin.json('GET', `/api/media/${film.mediaId}/captions/${film.trackId}/cues`));
    expect(state.revisions[0]).toMatchObject({ number: before + 1, source: 'edited', author: 'Studio Admin', current: true });
    const track = ((await expectStatus(admin.json('GET', `/api/media/${film.mediaId}/versions/${film.versionId}/captions`))) as any[]).find((t) => t.id === film.trackId);
    expect(vttCues(await (await admin.get(new URL(track.src, server.url).pathname)).text())).toContain('00:00:05.000 --> 00:00:06.000|Gulls follow them <i>out to sea</i>');
    const again = await accept(admin, note.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This wording has already been accepted');
    expect(await revisions(film.trackId)).toBe(before + 1);
  });

  test('a link guest proposes through a link with comments; staff accept it with source "link"', async () => {
    const made = await expectStatus(admin.json('POST', '/api/share-links', { name: 'For legal', mediaIds: [other.mediaId], allowComment: true }), 201);
    const token = new URL(made.url).pathname.split('/').pop()!;
    const guest = await enterLink(server.url, token);
    const r = await guest.json('POST', `/api/share/${token}/media/${other.mediaId}/timeline-notes`, { name: 'Lee (legal)', text: 'Say it plainly', timestampMs: 1500, cueTrackId: other.trackId, proposal: 'Welcome to Harbour Studio.' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.cue).toMatchObject({ text: 'Welcome to the harbour.', proposal: 'Welcome to Harbour Studio.' });
    const shownToGuest = (await expectStatus(guest.json('GET', `/api/share/${token}`))).comments.find((c: any) => c.id === r.body.id && c.source === 'link');
    expect(shownToGuest.cue.proposal).toBe('Welcome to Harbour Studio.');
    // The id names a share comment: as a timeline note it is another note (or none).
    expect((await accept(admin, r.body.id, 'link')).status).toBe(200);
    const listed = (await adminNotes(other.mediaId)).find((n: any) => n.id === r.body.id && n.source === 'link');
    expect(listed.cue.acceptedRevision).toBe(2);
    const texts = ((await expectStatus(admin.json('GET', `/api/media/${other.mediaId}/captions/${other.trackId}/cues`))).cues as { text: string }[]).map((c) => c.text);
    expect(texts[0]).toBe('Welcome to Harbour Studio.');
  });

  test('the cue changed since the note: 409 saying so, no revision written', async () => {
    const note = await expectStatus(clientNote({ timestampMs: 1200, cueTrackId: film.trackId, proposal: 'Welcome aboard.' }), 201);
    const state = await expectStatus(admin.json('GET', `/api/media/${film.mediaId}/captions/${film.trackId}/cues`));
    const edited = state.cues.map((c: any) => (c.startMs === 1000 ? { ...c, text: 'Welcome to the quay.' } : c));
    await expectStatus(admin.json('PUT', `/api/media/${film.mediaId}/captions/${film.trackId}/cues`, { baseRevisionId: state.track.revisionId, cues: edited }));
    const before = await revisions(film.trackId);
    const r = await accept(admin, note.id);
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/^That cue has changed since the note was written/);
    expect(await revisions(film.trackId)).toBe(before);
  });

  test.each([
    ['a note that proposes nothing', async () => (await expectStatus(clientNote({ timestampMs: 3100, cueTrackId: film.trackId }), 201)).id, 409, 'This note proposes no wording for a cue'],
    ['a note not pinned to a cue', async () => (await expectStatus(clientNote({ timestampMs: 3100 }), 201)).id, 409, 'This note proposes no wording for a cue'],
    ['a note that does not exist', async () => 999_999, 404, 'Timeline note not found'],
  ])('%s: %i', async (_what, noteId, status, message) => {
    const r = await accept(admin, await noteId());
    expect(r.status).toBe(status);
    expect(r.body.message).toBe(message);
  });

  test('a deleted track: the note keeps the cue’s words, without its track, and its wording can no longer be accepted', async () => {
    const third = await filmWithTrack('Deleted track cut', (await createClientWithLogin(server)).clientId);
    const note = await expectStatus(staffNote({ timestampMs: 5500, cueTrackId: third.trackId, proposal: 'Gulls, always gulls' }, third), 201);
    await expectStatus(admin.json('DELETE', `/api/media/${third.mediaId}/captions/${third.trackId}`));
    const listed = (await adminNotes(third.mediaId)).find((n: any) => n.id === note.id);
    expect(listed.cue).toMatchObject({ trackId: null, trackLabel: null, text: 'Gulls follow them out', proposal: 'Gulls, always gulls' });
    const r = await accept(admin, note.id);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('The caption track this note is about has been deleted');
  });

  test('who may accept: editing captions is edit:media', async () => {
    const note = await expectStatus(clientNote({ timestampMs: 3100, cueTrackId: film.trackId, proposal: 'The boats sail at dawn' }), 201);
    const viewer = await createStaffUser(server, { permissions: ['view:media'] });
    const cases: [Session, number][] = [
      [new Session(server.url), 401],
      [client, 401],
      [await staffSession(server.url, viewer.username, viewer.password), 403],
    ];
    const before = await revisions(film.trackId);
    for (const [who, status] of cases) expect((await accept(who, note.id)).status).toBe(status);
    expect(await revisions(film.trackId)).toBe(before);
    const editor = await createStaffUser(server, { permissions: ['view:media', 'edit:media'] });
    expect((await accept(await staffSession(server.url, editor.username, editor.password), note.id)).status).toBe(200);
  });
});

test('the NLE markers carry the cue under the note: its track, words, the wording and whether it was accepted', async () => {
  const third = await filmWithTrack('Markers cut', (await createClientWithLogin(server)).clientId);
  const note = await expectStatus(staffNote({ text: 'Reword', timestampMs: 3000, cueTrackId: third.trackId, proposal: 'Boats at dawn' }, third), 201);
  await expectStatus(accept(admin, note.id));
  const csv = await (await admin.get(`/api/media/${third.mediaId}/versions/${third.versionId}/markers?format=csv`)).text();
  expect(csv).toContain('Caption (English): ""The boats leave at dawn"" → ""Boats at dawn"" (accepted, revision 2)');
});
