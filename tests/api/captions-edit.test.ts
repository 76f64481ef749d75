// Editing captions in the browser (issue 54 item 3), through the API the editor uses: the
// current revision opened in the editor's form, a save written as the next revision with its
// author and a readable diff, a save from a stale revision refused with nothing stored, cues an
// upload would refuse refused naming the cue, any revision brought back, and who may do what.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { createVideo } from '../helpers/portal-fixtures.ts';
import { srt, uploadCaption, vttCues } from '../helpers/captions.ts';

let server: TestServer;
let admin: Session;
let mediaId: number;
let versionId: number;

const FILE = srt([
  [1000, 2000, 'Tom & Jerry <i>run</i>.'],
  [2500, 4000, 'Second line'],
  [5000, 6000, 'Third line'],
]);

const cuesUrl = (trackId: number) => `/api/media/${mediaId}/captions/${trackId}/cues`;
const revisionsUrl = (trackId: number) => `/api/media/${mediaId}/captions/${trackId}/revisions`;

/** A new track (its own language) with FILE as revision 1; answers its id and the editor's state. */
let lang = 0;
async function newTrack(): Promise<{ trackId: number; state: any }> {
  const languages = ['de', 'fr', 'es', 'it', 'nl', 'pt', 'sv', 'da', 'fi', 'pl', 'cs', 'el', 'hu', 'ro', 'tr', 'ja', 'ko', 'zh', 'ar', 'he', 'hi', 'id', 'ms', 'th', 'vi', 'uk', 'ru', 'bg', 'hr', 'sk'];
  const up = await uploadCaption(admin, mediaId, versionId, FILE, { language: languages[lang++]!, kind: 'subtitles' });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const trackId = up.body.track.id as number;
  const state = await admin.json('GET', cuesUrl(trackId));
  expect(state.status, JSON.stringify(state.body)).toBe(200);
  return { trackId, state: state.body };
}

const revisionCount = async (trackId: number) => Number((await server.sql.execute({ sql: 'SELECT count(*) AS n FROM caption_revisions WHERE track_id = ?', args: [trackId] })).rows[0]!.n);
const playerCues = async (trackId: number) => {
  const track = ((await admin.json('GET', `/api/media/${mediaId}/versions/${versionId}/captions`)).body as any[]).find((t) => t.id === trackId);
  return vttCues(await (await admin.get(new URL(track.src, server.url).pathname)).text());
};

beforeAll(async () => {
  server = await startServer();
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const video = await createVideo(server, { title: 'Edit film', durationSeconds: 60 });
  mediaId = video.id;
  versionId = Number((await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [mediaId] })).rows[0]!.id);
}, 60_000);
afterAll(() => server?.stop());

describe('opening and saving', () => {
  test('the editor opens the current revision as people type it (& and <i> as themselves), with the revisions and their authors', async () => {
    const { state } = await newTrack();
    expect(state.track).toMatchObject({ revision: 1, kind: 'subtitles' });
    expect(state.cues).toEqual([
      { startMs: 1000, endMs: 2000, text: 'Tom & Jerry <i>run</i>.', settings: '' },
      { startMs: 2500, endMs: 4000, text: 'Second line', settings: '' },
      { startMs: 5000, endMs: 6000, text: 'Third line', settings: '' },
    ]);
    expect(state.durationMs).toBe(60_000);
    expect(state.revisions).toEqual([expect.objectContaining({ number: 1, source: 'uploaded', cueCount: 3, current: true, author: expect.any(String) })]);
  });

  test('a save is the next revision (edited, its author, its cues for every player), and its diff says what changed, was added and removed', async () => {
    const { trackId, state } = await newTrack();
    const edited = [
      { startMs: 1000, endMs: 2000, text: 'Tom & Jerry <i>run</i>.' }, // unchanged
      { startMs: 2500, endMs: 4200, text: 'Second line, longer' }, // changed (same start)
      { startMs: 7000, endMs: 8000, text: 'A new <b>fourth</b>' }, // added; "Third line" removed
    ];
    const res = await admin.json('PUT', cuesUrl(trackId), { baseRevisionId: state.track.revisionId, cues: edited });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.track.revision).toBe(2);
    expect(res.body.revisions[0]).toMatchObject({ number: 2, source: 'edited', cueCount: 3, current: true, author: 'Studio Admin' });
    expect(res.body.revisions[1]).toMatchObject({ number: 1, current: false });
    expect(await playerCues(trackId)).toEqual([
      '00:00:01.000 --> 00:00:02.000|Tom &amp; Jerry <i>run</i>.',
      '00:00:02.500 --> 00:00:04.200|Second line, longer',
      '00:00:07.000 --> 00:00:08.000|A new <b>fourth</b>',
    ]);
    const diff = await admin.json('GET', `${revisionsUrl(trackId)}/2/diff`);
    expect(diff.status).toBe(200);
    expect(diff.body).toEqual({
      number: 2,
      against: 1,
      unchanged: 1,
      entries: [
        { change: 'changed', before: { startMs: 2500, endMs: 4000, text: 'Second line' }, after: { startMs: 2500, endMs: 4200, text: 'Second line, longer' } },
        { change: 'removed', before: { startMs: 5000, endMs: 6000, text: 'Third line' }, after: null },
        { change: 'added', before: null, after: { startMs: 7000, endMs: 8000, text: 'A new <b>fourth</b>' } },
      ],
    });
    // The first revision's diff is against nothing: every cue added.
    const first = (await admin.json('GET', `${revisionsUrl(trackId)}/1/diff`)).body;
    expect(first).toMatchObject({ number: 1, against: null, unchanged: 0 });
    expect(first.entries.map((e: any) => e.change)).toEqual(['added', 'added', 'added']);
  });

  test('cues sent out of order are stored in order of their start, and one running past the film ends with it', async () => {
    const { trackId, state } = await newTrack();
    const res = await admin.json('PUT', cuesUrl(trackId), {
      baseRevisionId: state.track.revisionId,
      cues: [
        { startMs: 59_000, endMs: 70_000, text: 'Last' },
        { startMs: 500, endMs: 1500, text: 'First' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cues.map((c: any) => [c.startMs, c.endMs, c.text])).toEqual([
      [500, 1500, 'First'],
      [59_000, 60_000, 'Last'],
    ]);
  });

  test('a save from a revision that is no longer current answers 409 and stores nothing', async () => {
    const { trackId, state } = await newTrack();
    const cues = [{ startMs: 1000, endMs: 2000, text: 'Mine' }];
    expect((await admin.json('PUT', cuesUrl(trackId), { baseRevisionId: state.track.revisionId, cues })).status).toBe(200);
    const stale = await admin.json('PUT', cuesUrl(trackId), { baseRevisionId: state.track.revisionId, cues: [{ startMs: 1000, endMs: 2000, text: 'Theirs' }] });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/Someone saved this track after you opened it/);
    expect(await revisionCount(trackId)).toBe(2);
    expect(await playerCues(trackId)).toEqual(['00:00:01.000 --> 00:00:02.000|Mine']);
  });

  test('two saves from the same revision at once: exactly one lands', async () => {
    const { trackId, state } = await newTrack();
    const save = (text: string) => admin.json('PUT', cuesUrl(trackId), { baseRevisionId: state.track.revisionId, cues: [{ startMs: 1000, endMs: 2000, text }] });
    const statuses = (await Promise.all([save('One'), save('Two')])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect(await revisionCount(trackId)).toBe(2);
  });
});

describe('cues an upload would refuse are refused naming the cue, and nothing is stored', () => {
  const ok = { startMs: 1000, endMs: 2000, text: 'Fine' };
  test.each([
    { name: 'an end before its start', cues: [ok, { startMs: 3000, endMs: 2500, text: 'Back' }], message: /^Cue 2: it ends \(00:00:02\.500\) before it starts \(00:00:03\.000\)/ },
    { name: 'a start after the film', cues: [ok, { startMs: 61_000, endMs: 62_000, text: 'Late' }], message: /^Cue 2: it starts at 00:01:01\.000, after the film ends \(00:01:00\.000\)/ },
    { name: 'HTML in the text', cues: [{ startMs: 1000, endMs: 2000, text: '<script>alert(1)</script>' }], message: /^Cue 1: the cue text holds HTML \(<script>\)/ },
    { name: 'a bidi override', cues: [ok, { startMs: 3000, endMs: 4000, text: 'evil\u202Etxt' }], message: /^Cue 2: the cue text / },
    { name: 'no text left', cues: [ok, { startMs: 3000, endMs: 4000, text: '<i> </i>' }], message: /^Cue 2: it has no text/ },
    {
      name: 'five cues on screen at once',
      cues: Array.from({ length: 5 }, (_, i) => ({ startMs: 1000 + i, endMs: 5000, text: `Voice ${i + 1}` })),
      message: /^Cue 5: this cue would be the 5th on screen at once/,
    },
    { name: 'no cues', cues: [], message: /^cues: a track needs at least one cue/ },
    { name: 'a time that is not whole milliseconds', cues: [{ startMs: 1.5, endMs: 2000, text: 'x' }], message: /startMs must be whole milliseconds/ },
    { name: 'an unknown field in a cue', cues: [{ ...ok, speaker: 'Tom' }], message: /speaker/ },
  ])('$name', async ({ cues, message }) => {
    const { trackId, state } = await newTrack();
    const res = await admin.json('PUT', cuesUrl(trackId), { baseRevisionId: state.track.revisionId, cues });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await revisionCount(trackId)).toBe(1);
  });
});

describe('bringing a revision back', () => {
  test('revert writes the old revision again as the next one (its file, format and cues); the current one cannot be reverted to', async () => {
    const { trackId, state } = await newTrack();
    await admin.json('PUT', cuesUrl(trackId), { baseRevisionId: state.track.revisionId, cues: [{ startMs: 1000, endMs: 2000, text: 'Changed' }] });
    const back = await admin.json('POST', `${revisionsUrl(trackId)}/1/revert`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.track.revision).toBe(3);
    expect(back.body.revisions[0]).toMatchObject({ number: 3, source: 'uploaded', cueCount: 3, notes: ['brought back from revision 1'] });
    expect(await playerCues(trackId)).toEqual([
      '00:00:01.000 --> 00:00:02.000|Tom &amp; Jerry <i>run</i>.',
      '00:00:02.500 --> 00:00:04.000|Second line',
      '00:00:05.000 --> 00:00:06.000|Third line',
    ]);
    // The file as uploaded comes back too (the revision's "as uploaded" download).
    const track = ((await admin.json('GET', `/api/media/${mediaId}/versions/${versionId}/captions`)).body as any[]).find((t) => t.id === trackId);
    expect(await (await admin.get(new URL(track.downloads.original, server.url).pathname + '?download=1')).text()).toBe(FILE);
    const again = await admin.json('POST', `${revisionsUrl(trackId)}/3/revert`);
    expect(again.status).toBe(409);
    expect((await admin.json('POST', `${revisionsUrl(trackId)}/9/revert`)).status).toBe(404);
    expect(await revisionCount(trackId)).toBe(3);
  });
});

describe('who may open, save and revert', () => {
  test.each([
    { who: 'staff with view:media', permissions: ['view:media'], open: 200, save: 403, revert: 403 },
    { who: 'staff with view:media and edit:media', permissions: ['view:media', 'edit:media'], open: 200, save: 200, revert: 200 },
    { who: 'staff without view:media', permissions: ['view:users'], open: 403, save: 403, revert: 403 },
    { who: 'a client login', permissions: null, open: 401, save: 401, revert: 401 },
    { who: 'nobody signed in', permissions: undefined, open: 401, save: 401, revert: 401 },
  ])('$who: open $open, save $save, revert $revert', async ({ permissions, open, save, revert }) => {
    const { trackId, state } = await newTrack();
    let session: Session;
    if (permissions) {
      const u = await createStaffUser(server, { permissions });
      session = await staffSession(server.url, u.username, u.password);
    } else if (permissions === null) {
      const c = await createClientWithLogin(server);
      session = await clientSession(server.url, c.username, c.password);
    } else session = new Session(server.url);
    expect((await session.json('GET', cuesUrl(trackId))).status).toBe(open);
    expect((await session.json('GET', `${revisionsUrl(trackId)}/1/diff`)).status).toBe(open);
    const saved = await session.json('PUT', cuesUrl(trackId), { baseRevisionId: state.track.revisionId, cues: [{ startMs: 1000, endMs: 2000, text: 'Edited' }] });
    expect(saved.status).toBe(save);
    expect((await session.json('POST', `${revisionsUrl(trackId)}/1/revert`)).status).toBe(revert);
    expect(await revisionCount(trackId)).toBe(1 + (save === 200 ? 1 : 0) + (revert === 200 ? 1 : 0));
  });

  test("a track named through another item's address is not found", async () => {
    const { trackId } = await newTrack();
    const other = await createVideo(server, { title: 'Other film' });
    for (const url of [`/api/media/${other.id}/captions/${trackId}/cues`, `/api/media/${other.id}/captions/${trackId}/revisions/1/diff`]) {
      const res = await admin.json('GET', url);
      expect(res.status, url).toBe(404);
      expect(res.body.message).toBe('Caption track not found');
    }
    expect((await admin.json('POST', `/api/media/${other.id}/captions/${trackId}/revisions/1/revert`)).status).toBe(404);
  });
});
