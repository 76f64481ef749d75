// Captions and subtitles (issue 54): caption files as editors send them (encodings, line
// endings, styling, numbering) read into tracks; bad files refused naming the line with nothing
// stored; a track readable exactly by those who may watch its version; downloads under the same
// gates as every other; the HLS subtitle rendition; frame-exact times; carrying tracks over to a
// new version; and the public watch page's tracks, transcript and structured data.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { createUpload, patchUpload } from '../helpers/tus.ts';
import { frameSource } from '../helpers/frame-fixture.ts';
import { parseMaster } from '../helpers/hls.ts';
import { encode, filmSrt, srt, uploadCaption, uploadReadyVideo, vttCues, type Encoding, type LineEnding } from '../helpers/captions.ts';

let server: TestServer;
let admin: Session;
let owner: Session;
let stranger: Session;
let ownerClientId: number;
let item: any;
let versionId: number;
let storageKey: string;

const FILM_MS = 8000;

function readyItem(s: Session, title: string, clientId: number | null, seconds = FILM_MS / 1000) {
  const file = frameSource({ rate: '25', seconds, video: 'h264', container: 'mp4', audio: { codec: 'aac', sampleRate: 48000 } });
  return uploadReadyVideo(s, title, fs.readFileSync(file), 'cut.mp4', clientId);
}

const versionsOf = async (mediaId: number) => (await admin.json('GET', `/api/media/${mediaId}/versions`)).body as any[];
const tracksOf = async (mediaId: number, vId: number) => (await admin.json('GET', `/api/media/${mediaId}/versions/${vId}/captions`)).body as any[];
const pathOf = (url: string) => {
  const u = new URL(url, server.url);
  return u.pathname + u.search;
};

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '200' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const a = await createClientWithLogin(server, { name: 'Owner Films' });
  const b = await createClientWithLogin(server, { name: 'Other Co' });
  ownerClientId = a.clientId;
  owner = await clientSession(server.url, a.username, a.password);
  stranger = await clientSession(server.url, b.username, b.password);
  item = await readyItem(admin, 'Harbour film', a.clientId);
  const [v] = await versionsOf(item.id);
  versionId = v.id;
  storageKey = /\/media\/([a-f0-9]{32})\//.exec(item.url)![1]!;
}, 150_000);
afterAll(() => server?.stop());

const ROWS = ['Good evening.', 'Café “au lait” — it’s late.'];
const BASIC = srt([
  [1000, 2000, ROWS[0]!],
  [2500, 4000, ROWS[1]!],
]);

describe('caption files as editors send them', () => {
  // Each case: the file, the encoding the answer must name, and the cues the player gets.
  const encodings: [string, Encoding, LineEnding][] = [
    ['UTF-8, CRLF', 'utf-8', 'crlf'],
    ['UTF-8 with a byte-order mark, LF', 'utf-8-bom', 'lf'],
    ['UTF-16 LE with a byte-order mark, CRLF', 'utf-16le', 'crlf'],
    ['UTF-16 BE with a byte-order mark', 'utf-16be', 'lf'],
    ['UTF-16 LE without a byte-order mark', 'utf-16le-nobom', 'crlf'],
    ['Windows-1252, CR only', 'windows-1252', 'cr'],
  ];
  const expectedEncoding = (e: Encoding) => (e === 'utf-16le-nobom' ? 'utf-16le' : e);

  test.each(encodings)('an SRT in %s is read as that encoding, and the answer says which', async (_name, encoding, ending) => {
    const res = await uploadCaption(admin, item.id, versionId, encode(BASIC, encoding, ending), { language: 'fr-ca', label: `Enc ${encoding}`, kind: 'subtitles' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ encoding: expectedEncoding(encoding), format: 'srt', cueCount: 2 });
    expect(res.body.encodingLabel).toBeTruthy();
    expect(res.body.track).toMatchObject({ language: 'fr-CA', encoding: expectedEncoding(encoding) });
    const vtt = await (await admin.get(pathOf(res.body.track.src))).text();
    expect(vttCues(vtt)).toEqual(["00:00:01.000 --> 00:00:02.000|Good evening.", `00:00:02.520 --> 00:00:04.000|${ROWS[1]}`]);
  });

  // Times on 25 fps frames: 2,500 ms is between frames 62 (2,480) and 63 (2,520): the cue shows from frame 63.
  const styled: [string, string, string[], RegExp | null][] = [
    [
      "`.` before the milliseconds, two digits of them, no hours (WebVTT style in an SRT)",
      '1\n00:01.5 --> 00:02.25\nShort\n',
      ['00:00:01.520 --> 00:00:02.280|Short'],
      null,
    ],
    ['no cue numbers at all', '00:00:01,000 --> 00:00:02,000\nOne\n\n00:00:03,000 --> 00:00:04,000\nTwo\n', ['00:00:01.000 --> 00:00:02.000|One', '00:00:03.000 --> 00:00:04.000|Two'], /numbered in order/],
    [
      'wrong cue numbers and no blank line between cues',
      '7\n00:00:01,000 --> 00:00:02,000\nOne\n3\n00:00:03,000 --> 00:00:04,000\nTwo\n',
      ['00:00:01.000 --> 00:00:02.000|One', '00:00:03.000 --> 00:00:04.000|Two'],
      /out of sequence/,
    ],
    [
      'styling: <i>, <b>, <u> kept, <font> dropped, {\\an8} placed at the top',
      '1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<I>Top</I> <font color="#ff0000">red</font>\n<b><u>both</u></b>\n',
      ['00:00:01.000 --> 00:00:02.000 line:0|<i>Top</i> red|<b><u>both</u></b>'],
      /styling WebVTT cannot show/,
    ],
    ['unbalanced and mis-nested tags', '1\n00:00:01,000 --> 00:00:02,000\n<i>open <b>both</i> closed</b> </u>stray\n', ['00:00:01.000 --> 00:00:02.000|<i>open <b>both</b></i><b> closed</b> stray'], null],
    ['entities and bare angle brackets', '1\n00:00:01,000 --> 00:00:02,000\nFish &amp; chips &lt;3 and a < b > c\n', ['00:00:01.000 --> 00:00:02.000|Fish &amp; chips &lt;3 and a &lt; b &gt; c'], null],
    [
      'overlapping cues (two speakers) and cues out of order',
      srt([
        [3000, 4000, 'Later'],
        [1000, 3500, 'First speaker'],
        [1200, 2000, 'Second speaker'],
      ]),
      ['00:00:01.000 --> 00:00:03.520|First speaker', '00:00:01.200 --> 00:00:02.000|Second speaker', '00:00:03.000 --> 00:00:04.000|Later'],
      /overlap/,
    ],
    ['a blank line inside a cue', '1\n00:00:01,000 --> 00:00:02,000\nFirst row\n\nsecond row\n\n2\n00:00:03,000 --> 00:00:04,000\nNext\n', ['00:00:01.000 --> 00:00:02.000|First row|second row', '00:00:03.000 --> 00:00:04.000|Next'], /blank lines/],
    ['a cue running past the end of the film ends with it', '1\n00:00:07,000 --> 00:00:09,500\nLast words\n', ['00:00:07.000 --> 00:00:08.000|Last words'], /end with it/],
  ];

  test.each(styled)('SRT with %s', async (_name, file, cues, note) => {
    const res = await uploadCaption(admin, item.id, versionId, file, { language: 'de', label: 'Styled', kind: 'captions' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    if (note) expect(res.body.notes.join(' ')).toMatch(note);
    expect(vttCues(await (await admin.get(pathOf(res.body.track.src))).text())).toEqual(cues);
  });

  test('WebVTT without hours, with identifiers, NOTE and STYLE blocks and cue settings', async () => {
    const vtt = 'WEBVTT - made by an editor\n\nSTYLE\n::cue { color: yellow }\n\nNOTE a comment\nover two lines\n\nintro\n00:01.000 --> 00:02.000 align:start line:0 vertical:rl\n<v Roger>Hello</v> <c.loud>there</c>\n\n00:03.000 --> 00:04.000\n<00:03.500>Karaoke\n';
    const res = await uploadCaption(admin, item.id, versionId, vtt, { language: 'es', label: 'VTT' }, 'x.vtt');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.format).toBe('vtt');
    expect(vttCues(await (await admin.get(pathOf(res.body.track.src))).text())).toEqual(['00:00:01.000 --> 00:00:02.000 align:start line:0|Hello there', '00:00:03.000 --> 00:00:04.000|Karaoke']);
  });

  test('SubViewer (SBV) with [br] line breaks', async () => {
    const res = await uploadCaption(admin, item.id, versionId, '0:00:01.000,0:00:02.000\nOne[br]Two\n\n0:00:03.000,0:00:04.000\nThree\n', { language: 'it', label: 'SBV' }, 'x.sbv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.format).toBe('sbv');
    expect(vttCues(await (await admin.get(pathOf(res.body.track.src))).text())).toEqual(['00:00:01.000 --> 00:00:02.000|One|Two', '00:00:03.000 --> 00:00:04.000|Three']);
  });

  test('a second file for the same language and kind is the next revision of its track, not a second track', async () => {
    const first = await uploadCaption(admin, item.id, versionId, BASIC, { language: 'nl', label: 'Dutch' });
    const second = await uploadCaption(admin, item.id, versionId, srt([[1000, 2000, 'Revised']]), { language: 'nl' });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.track).toMatchObject({ id: first.body.track.id, revision: 2, label: 'Dutch', cueCount: 1 });
    // The old revision's files are no longer served: players ask for the current one.
    expect((await admin.get(pathOf(first.body.track.src))).status).toBe(404);
  });
});

describe('bad caption files', () => {
  const over = (n: number) => srt(Array.from({ length: n }, (_, i) => [1000, 5000, `Cue ${i}`]));
  const cases: [string, () => Uint8Array | string, Record<string, string>, number, RegExp][] = [
    ['a binary file (a PNG)', () => Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5a0f1ad0000000049454e44ae426082', 'hex'), {}, 400, /not a text file/],
    ['a 50 MB file', () => Buffer.alloc(50 * 1024 * 1024, 0x41), {}, 413, /at most 4 MB/],
    ['an empty file', () => '', {}, 400, /empty/],
    ['a cue that ends before it starts', () => srt([[1000, 2000, 'Fine'], [3000, 2500, 'Backwards']]), {}, 400, /^Line 6: the cue ends \(00:00:02\.500\) before it starts \(00:00:03\.000\)/],
    ['a cue after the end of the film', () => srt([[1000, 2000, 'Fine'], [9000, 9500, 'Too late']]), {}, 400, /^Line 6: the cue starts at 00:00:09\.000, after the film ends \(00:00:08\.0\d\d\)/],
    ['20,000 overlapping cues', () => over(20_000), {}, 400, /20,000 cues; a track may hold at most 10,000/],
    ['five cues on screen at once', () => over(5), {}, 400, /^Line 18: .*at most 4 cues may overlap/],
    ['script in a cue', () => srt([[1000, 2000, 'Hello <script>alert(1)</script>']]), {}, 400, /^Line 3: the cue text holds HTML \(<script>\)/],
    ['an image tag in a cue', () => srt([[1000, 2000, '<img src=x onerror=alert(1)>']]), {}, 400, /^Line 3: .*\(<img>\)/],
    ['a right-to-left override', () => srt([[1000, 2000, 'gnp.\u202Eexe']]), {}, 400, /^Line 3: the cue text must not contain text-direction control characters \(found U\+202E\)/],
    ['a right-to-left override written as an entity', () => srt([[1000, 2000, 'gnp.&#x202E;exe']]), {}, 400, /^Line 3: .*U\+202E/],
    ['an invisible character', () => srt([[1000, 2000, 'in\u200Bvisible']]), {}, 400, /^Line 3: the cue text must not contain invisible characters \(found U\+200B\)/],
    ['a control character', () => srt([[1000, 2000, 'bell\u0007']]), {}, 400, /^Line 3: .*control characters/],
    ['a byte neither UTF-8 nor Windows-1252', () => Buffer.concat([Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 --> 00:00:04,000\nbad '), Buffer.from([0x81, 0x0a])]), {}, 400, /^Line 7: byte 0x81 is neither UTF-8 nor Windows-1252/],
    ['an unreadable timing', () => '1\n00:00:01,000 --> soon\nText\n', {}, 400, /^Line 2: the cue timing "00:00:01,000 --> soon" cannot be read/],
    ['minutes past 59', () => '1\n00:61:01,000 --> 00:61:02,000\nText\n', {}, 400, /^Line 2: 00:61:01 is not a time/],
    ['text that is no caption format', () => 'Dear editor,\nplease find the subtitles attached.\n', {}, 400, /no cue timings were found/i],
    ['an unknown language code', () => BASIC, { language: 'xx' }, 400, /^language: "xx" is not a known BCP 47 language tag/],
    ['a malformed language tag', () => BASIC, { language: 'en--GB' }, 400, /^language: /],
    ['an unknown kind', () => BASIC, { kind: 'karaoke' }, 400, /^kind: /],
  ];

  test.each(cases)('%s: refused with a clear message, and nothing is stored', async (_name, make, fields, status, message) => {
    const before = await tracksOf(item.id, versionId);
    const cues = (await server.sql.execute('SELECT count(*) AS n FROM caption_cues')).rows[0]!.n;
    const res = await uploadCaption(admin, item.id, versionId, make(), { language: 'pt-BR', label: 'Bad', ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.message).toMatch(message);
    expect(await tracksOf(item.id, versionId)).toEqual(before);
    expect((await server.sql.execute('SELECT count(*) AS n FROM caption_cues')).rows[0]!.n).toBe(cues);
  });

  test('an image has no captions; a version of another item is not found', async () => {
    const image = await server.sql.execute("SELECT m.id, v.id AS vid FROM media m JOIN media_versions v ON v.media_id = m.id WHERE m.type = 'image' LIMIT 1");
    const row = image.rows[0];
    if (row) expect((await uploadCaption(admin, Number(row.id), Number(row.vid), BASIC)).status).toBe(400);
    expect((await uploadCaption(admin, item.id + 999, versionId, BASIC)).status).toBe(404);
  });
});

describe('who reads a track: exactly those who may watch its version', () => {
  let track: any;
  let publicItem: any;
  let publicVersion: number;
  let publicKey: string;
  let shown: any;
  let hidden: any;
  const files = (rev: number) => [`cc-${rev}.vtt`, `cc-${rev}.m3u8`, `cc-${rev}-0.vtt`];

  beforeAll(async () => {
    track = (await uploadCaption(admin, item.id, versionId, BASIC, { language: 'en-GB', label: 'English', kind: 'subtitles' })).body.track;
    publicItem = await readyItem(admin, 'Showreel', null);
    expect((await admin.json('PUT', `/api/media/${publicItem.id}`, { showInPortfolio: true })).status).toBe(200);
    publicVersion = (await versionsOf(publicItem.id))[0].id;
    publicKey = /\/media\/([a-f0-9]{32})\//.exec(publicItem.url)![1]!;
    shown = (await uploadCaption(admin, publicItem.id, publicVersion, BASIC, { language: 'en', label: 'English', published: 'true' })).body.track;
    hidden = (await uploadCaption(admin, publicItem.id, publicVersion, srt([[1000, 2000, 'Draft only']]), { language: 'fr', label: 'Brouillon' })).body.track;
    expect([shown.published, hidden.published]).toEqual([true, false]);
  }, 150_000);

  test.each([
    ['staff with view:media', ['view:media'], 200],
    ['staff without view:media', ['share:media'], 404],
  ])('%s: %s', async (_name, permissions, status) => {
    const u = await createStaffUser(server, { permissions });
    const s = await staffSession(server.url, u.username, u.password);
    for (const f of [...files(track.revisionId), 'captions.json']) expect((await s.get(`/media/${storageKey}/${f}`)).status, f).toBe(status);
  });

  test('the assigned client reads every track of its item; another client and the signed-out get 404', async () => {
    const index = (await owner.json('GET', `/media/${storageKey}/captions.json`)).body;
    expect(index.tracks.map((t: any) => t.label)).toContain('English');
    for (const f of files(track.revisionId)) expect((await owner.get(`/media/${storageKey}/${f}`)).status, f).toBe(200);
    for (const s of [stranger, new Session(server.url)]) {
      for (const f of [...files(track.revisionId), 'captions.json', `cc-${track.revisionId}.srt`, `cc-${track.revisionId}-original.srt`]) expect((await s.get(`/media/${storageKey}/${f}`)).status, f).toBe(404);
    }
  });

  test('the public reads a public film’s published tracks only, in its index, its files and its master playlist', async () => {
    const anon = new Session(server.url);
    const index = (await anon.json('GET', `/media/${publicKey}/captions.json`)).body;
    expect(index.tracks.map((t: any) => t.label)).toEqual(['English']);
    expect(index.tracks[0].downloads).toBeNull();
    for (const f of files(shown.revisionId)) expect((await anon.get(`/media/${publicKey}/${f}`)).status, f).toBe(200);
    for (const f of files(hidden.revisionId)) expect((await anon.get(`/media/${publicKey}/${f}`)).status, f).toBe(404);
    const master = await (await anon.get(`/media/${publicKey}/master.m3u8`)).text();
    expect(master).toContain(`URI="cc-${shown.revisionId}.m3u8"`);
    expect(master).not.toContain(`cc-${hidden.revisionId}`);
    // Staff see both, in the same master.
    const staffMaster = await (await admin.get(`/media/${publicKey}/master.m3u8`)).text();
    expect(staffMaster).toContain(`cc-${hidden.revisionId}.m3u8`);
  });

  test('the public watch page carries the published track, a collapsed transcript of it and the transcript in its VideoObject; never the draft', async () => {
    const slug = String((await server.sql.execute({ sql: 'SELECT slug FROM media WHERE id = ?', args: [publicItem.id] })).rows[0]!.slug);
    const res = await new Session(server.url).get(`/portfolio/${slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const tracks = [...html.matchAll(/<track\b[^>]*>/g)].map((m) => m[0]);
    expect(tracks).toHaveLength(1);
    expect(tracks[0]).toContain(`src="/media/${publicKey}/cc-${shown.revisionId}.vtt"`);
    expect(tracks[0]).toMatch(/srclang="en"/i); // React writes srcLang: HTML attributes ignore case
    // Collapsed (a <details>, readable without JavaScript), in the track's language.
    const details = /<details[^>]*data-testid="watch-transcript"[^>]*>([\s\S]*?)<\/details>/.exec(html);
    expect(details, 'the transcript').not.toBeNull();
    expect(details![0]).not.toMatch(/<details[^>]*\sopen/);
    expect(details![1]).toContain('Transcript (English)');
    expect(details![1]).toContain('lang="en"');
    expect(details![1]).toContain(ROWS[0]);
    expect(details![1]).toContain(ROWS[1]);
    expect(html).not.toContain('Draft only');
    const ld = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
    const video = ld.flatMap((d) => (Array.isArray(d['@graph']) ? d['@graph'] : [d])).find((d) => d['@type'] === 'VideoObject');
    expect(video?.transcript).toBe(ROWS.join('\n'));
  });

  test('a revision is served only under its own version’s folder', async () => {
    // The private item's revision, asked for under the public film's folder.
    for (const s of [new Session(server.url), admin]) expect((await s.get(`/media/${publicKey}/cc-${track.revisionId}.vtt`)).status).toBe(404);
  });

  describe('through a share link', () => {
    async function link(extra: Record<string, unknown>) {
      const r = await admin.json('POST', '/api/share-links', { name: 'Review', mediaIds: [item.id], ...extra });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const token = new URL(r.body.url).pathname.split('/').pop()!;
      const visitor = new Session(server.url);
      expect((await visitor.get(`/s/${token}`)).status).toBe(200);
      return { id: r.body.id as number, token, visitor, base: `/s/${token}/m/${item.id}/` };
    }

    test('a link without downloads plays every track and downloads none; revoked, nothing', async () => {
      const { id, visitor, base } = await link({ download: 'none' });
      const index = (await visitor.json('GET', `${base}captions.json`)).body;
      const en = index.tracks.find((t: any) => t.label === 'English');
      expect(en).toMatchObject({ src: `${base}cc-${track.revisionId}.vtt`, downloads: null });
      for (const f of files(track.revisionId)) expect((await visitor.get(`${base}${f}`)).status, f).toBe(200);
      for (const f of [`cc-${track.revisionId}.srt`, `cc-${track.revisionId}.vtt?download=1`, `cc-${track.revisionId}-original.srt`]) expect((await visitor.get(`${base}${f}`)).status, f).toBe(404);
      // Its visitor has no way into /media/.
      expect((await visitor.get(`/media/${storageKey}/captions.json`)).status).toBe(404);
      expect((await admin.json('DELETE', `/api/share-links/${id}`)).status).toBe(200);
      for (const f of ['captions.json', ...files(track.revisionId)]) expect((await visitor.get(`${base}${f}`)).status, f).toBe(404);
    });

    test('a link with downloads gives the file as uploaded, SRT and WebVTT, and logs each', async () => {
      const { id, visitor, base } = await link({ download: 'preview' });
      const en = (await visitor.json('GET', `${base}captions.json`)).body.tracks.find((t: any) => t.label === 'English');
      const original = await visitor.get(pathOf(en.downloads.original));
      expect(original.status).toBe(200);
      expect(Buffer.from(await original.arrayBuffer()).toString()).toBe(BASIC);
      expect(original.headers.get('content-disposition')).toMatch(/^attachment;/);
      const srtFile = await visitor.get(pathOf(en.downloads.srt));
      expect(srtFile.headers.get('content-disposition')).toContain('Harbour%20film.en-GB.srt');
      expect(await srtFile.text()).toBe('1\n00:00:01,000 --> 00:00:02,000\nGood evening.\n\n2\n00:00:02,520 --> 00:00:04,000\nCafé “au lait” — it’s late.\n');
      expect((await visitor.get(pathOf(en.downloads.vtt))).status).toBe(200);
      const log = (await admin.json('GET', `/api/share-links/${id}/log`)).body.entries.filter((e: any) => e.action === 'download').map((e: any) => e.detail);
      expect(log.sort()).toEqual(['captions en-GB (original)', 'captions en-GB (srt)', 'captions en-GB (vtt)']);
    });
  });

  test('a client whose downloads wait for approval plays the tracks and is told why there are no downloads (403)', async () => {
    expect((await admin.json('PUT', `/api/clients/${ownerClientId}/downloads`, { downloadsAfterApproval: true })).status).toBe(200);
    try {
      const index = (await owner.json('GET', `/media/${storageKey}/captions.json`)).body;
      expect(index.downloadBlockedReason).toBe('Downloads open once this version is approved.');
      expect(index.tracks.every((t: any) => t.downloads === null)).toBe(true);
      expect((await owner.get(`/media/${storageKey}/cc-${track.revisionId}.vtt`)).status).toBe(200);
      for (const f of [`cc-${track.revisionId}.srt`, `cc-${track.revisionId}.vtt?download=1`, `cc-${track.revisionId}-original.srt`]) expect((await owner.get(`/media/${storageKey}/${f}`)).status, f).toBe(403);
    } finally {
      await admin.json('PUT', `/api/clients/${ownerClientId}/downloads`, { downloadsAfterApproval: false });
    }
    expect((await owner.get(`/media/${storageKey}/cc-${track.revisionId}.srt`)).status).toBe(200);
  });
});

describe('the HLS subtitle rendition', () => {
  test('the master names a subtitle group on every size, and its playlist’s segments carry X-TIMESTAMP-MAP and the cues', async () => {
    const t = (await uploadCaption(admin, item.id, versionId, srt([[1000, 2000, 'Early'], [5000, 6000, 'Later']]), { language: 'sv', label: 'Svenska', kind: 'forced' })).body.track;
    const master = await (await admin.get(`/media/${storageKey}/master.m3u8`)).text();
    const line = master.split('\n').find((l) => l.includes(`cc-${t.revisionId}.m3u8`))!;
    expect(line).toMatch(/^#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="cc",NAME="Svenska",LANGUAGE="sv",DEFAULT=NO,AUTOSELECT=YES,FORCED=YES,URI="cc-\d+\.m3u8"$/);
    const sizes = parseMaster(master);
    expect(sizes.length).toBeGreaterThan(0);
    for (const l of master.split('\n').filter((x) => x.startsWith('#EXT-X-STREAM-INF:'))) expect(l).toMatch(/,SUBTITLES="cc"$/);
    const playlist = await (await admin.get(`/media/${storageKey}/cc-${t.revisionId}.m3u8`)).text();
    expect(playlist).toMatch(/^#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:30\n/);
    expect(playlist).toContain('#EXT-X-ENDLIST');
    const segments = playlist.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(segments).toEqual([`cc-${t.revisionId}-0.vtt`]);
    const seg = await (await admin.get(`/media/${storageKey}/${segments[0]}`)).text();
    expect(seg.startsWith('WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\n')).toBe(true);
    expect(vttCues(seg)).toEqual(['00:00:01.000 --> 00:00:02.000|Early', '00:00:05.000 --> 00:00:06.000|Later']);
    expect((await admin.get(`/media/${storageKey}/cc-${t.revisionId}-1.vtt`)).status).toBe(404);
  });
});

describe('carrying captions over to a new version', () => {
  test('a new version starts with none; one click copies the previous version’s tracks, cues after its end left out', async () => {
    const v1Tracks = await tracksOf(item.id, versionId);
    // A shorter cut as version 2: 4 seconds.
    const file = frameSource({ rate: '25', seconds: 4, video: 'h264', container: 'mp4', audio: { codec: 'aac', sampleRate: 48000 } });
    const data = fs.readFileSync(file);
    const { id } = await createUpload(admin, data.length, { filename: 'cut-2.mp4' });
    expect((await patchUpload(admin, id!, 0, data)).status).toBe(204);
    const added = await admin.json('POST', `/api/media/${item.id}/versions`, { uploadId: id });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const v2 = (await versionsOf(item.id)).find((v) => v.number === 2)!;
    expect(await tracksOf(item.id, v2.id)).toEqual([]);
    const carried = await admin.json('POST', `/api/media/${item.id}/versions/${v2.id}/captions/carry-over`);
    expect(carried.status, JSON.stringify(carried.body)).toBe(200);
    expect(carried.body).toMatchObject({ carried: v1Tracks.length, from: 1 });
    const en = carried.body.tracks.find((t: any) => t.language === 'en-GB');
    expect(en).toMatchObject({ label: 'English', revision: 1, cueCount: 2, versionId: v2.id });
    expect(en.notes.join(' ')).toMatch(/carried over from version 1/);
    // The Swedish track's cue at 5 s is past the 4-second cut.
    const sv = carried.body.tracks.find((t: any) => t.language === 'sv');
    expect(sv.cueCount).toBe(1);
    // Again: nothing left to carry.
    expect((await admin.json('POST', `/api/media/${item.id}/versions/${v2.id}/captions/carry-over`)).status).toBe(409);
    // Version 1's tracks are unchanged and still readable by its client.
    expect((await tracksOf(item.id, versionId)).map((t) => t.revisionId)).toEqual(v1Tracks.map((t) => t.revisionId));
  });
});
