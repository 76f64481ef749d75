// Captions made by the job queue (issue 54): subtitle streams inside an upload (mov_text in MP4,
// SubRip in Matroska) become tracks of the version with the stream's language and kind, and an
// open-captions rendition is burnt in by ffmpeg (libass) from the track's cues and downloaded
// under the same gates as the version's other files.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin, createStaffUser } from '../helpers/accounts.ts';
import { until } from '../helpers/until.ts';
import { srt, uploadCaption, uploadReadyVideo, vttCues } from '../helpers/captions.ts';

let server: TestServer;
let admin: Session;
let owner: Session;
let stranger: Session;
let ownerClientId: number;
let dir: string;

function ffmpeg(args: string[]) {
  const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
}

interface Stream {
  language: string;
  disposition?: 'forced' | 'hearing_impaired';
  title?: string;
  cues: [number, number, string][];
}

/** A 4 s 25 fps film, black, with a tone and `streams` as subtitle streams of `codec`. */
function filmWithSubtitles(name: string, container: 'mp4' | 'mkv', codec: 'mov_text' | 'srt', streams: Stream[]): Buffer {
  const inputs = streams.flatMap((s, i) => {
    const file = path.join(dir, `${name}-${i}.srt`);
    fs.writeFileSync(file, srt(s.cues));
    return ['-i', file];
  });
  const out = path.join(dir, `${name}.${container}`);
  ffmpeg([
    '-f', 'lavfi', '-i', 'color=black:s=320x180:r=25:d=4',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=4',
    ...inputs,
    '-map', '0:v', '-map', '1:a', ...streams.flatMap((_, i) => ['-map', String(i + 2)]),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-c:s', codec,
    ...streams.flatMap((s, i) => [
      `-metadata:s:s:${i}`, `language=${s.language}`,
      ...(s.title ? [`-metadata:s:s:${i}`, `title=${s.title}`] : []),
      `-disposition:s:${i}`, s.disposition ?? '0',
    ]),
    out,
  ]); // prettier-ignore
  return fs.readFileSync(out);
}

const readyItem = (title: string, data: Buffer, name: string, clientId: number | null) => uploadReadyVideo(admin, title, data, name, clientId);

const versionOf = async (mediaId: number) => ((await admin.json('GET', `/api/media/${mediaId}/versions`)).body as any[])[0];
const tracksOf = async (mediaId: number, versionId: number) => (await admin.json('GET', `/api/media/${mediaId}/versions/${versionId}/captions`)).body as any[];
const pathOf = (url: string) => {
  const u = new URL(url, server.url);
  return u.pathname + u.search;
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-captions-jobs-'));
  server = await startServer({ env: { JOB_POLL_MS: '200' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const a = await createClientWithLogin(server, { name: 'Owner Films' });
  const b = await createClientWithLogin(server, { name: 'Other Co' });
  ownerClientId = a.clientId;
  owner = await clientSession(server.url, a.username, a.password);
  stranger = await clientSession(server.url, b.username, b.password);
}, 150_000);
afterAll(() => {
  server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('subtitle streams inside an upload become tracks', () => {
  // MP4 keeps no title per track (ffmpeg writes it as the handler's name), so the label is the
  // language's there; Matroska's title is the label. Matroska's picture starts about 20 ms into
  // the file's clock (the AAC sound's priming), and the cues are moved with it.
  test.each([
    ['mov_text in MP4', 'mp4', 'mov_text', 'English'],
    ['SubRip in Matroska', 'mkv', 'srt', 'English for the festival'],
  ] as const)('%s: each text stream is a track with its language, kind and title, read like an upload', async (name, container, codec, label) => {
    const data = filmWithSubtitles(container, container, codec, [
      { language: 'eng', title: 'English for the festival', cues: [[500, 1500, 'Good evening.'], [2000, 3000, 'It is late.']] },
      { language: 'swe', disposition: 'forced', cues: [[1000, 2000, 'God kväll.']] },
      { language: 'fra', disposition: 'hearing_impaired', cues: [[0, 1000, '[Musique douce]']] },
    ]);
    const item = await readyItem(`Embedded ${name}`, data, `film.${container}`, ownerClientId);
    const version = await versionOf(item.id);
    const tracks = await until('the streams read', async () => {
      const t = await tracksOf(item.id, version.id);
      return t.length === 3 ? t : null;
    }, 30_000);
    const summary = tracks.map((t) => [t.language, t.kind, t.label, t.source, t.cueCount]).sort();
    expect(summary).toEqual([
      ['en', 'subtitles', label, 'embedded', 2],
      ['fr', 'captions', 'French (SDH)', 'embedded', 1],
      ['sv', 'forced', 'Swedish (forced)', 'embedded', 1],
    ]);
    // Unpublished: staff and the version's client read them, nobody else.
    const en = tracks.find((t) => t.language === 'en')!;
    expect(en.published).toBe(false);
    const vtt = await owner.get(pathOf(en.src));
    expect(vtt.status).toBe(200);
    // On the version's frames (25 fps): 0.5 s is half way through frame 12, so the cue starts with frame 13.
    expect(vttCues(await vtt.text())).toEqual(['00:00:00.520 --> 00:00:01.520|Good evening.', '00:00:02.000 --> 00:00:03.000|It is late.']);
    expect((await stranger.get(pathOf(en.src))).status).toBe(404);
  });

  test('a film without subtitle streams gets no tracks', async () => {
    const data = filmWithSubtitles('plain', 'mp4', 'mov_text', []);
    const item = await readyItem('No streams', data, 'plain.mp4', null);
    expect(await tracksOf(item.id, (await versionOf(item.id)).id)).toEqual([]);
  });
});

describe('open captions', () => {
  let item: any;
  let versionId: number;
  let track: any;

  beforeAll(async () => {
    item = await readyItem('Burn film', filmWithSubtitles('burn', 'mp4', 'mov_text', []), 'burn.mp4', ownerClientId);
    versionId = (await versionOf(item.id)).id;
    const up = await uploadCaption(admin, item.id, versionId, srt([[1000, 3000, 'BURNT IN HERE']]), { language: 'en' });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    track = up.body.track;
  }, 150_000);

  /** Mean brightness (0–255) of the film's lower third at `seconds`. */
  function lowerThirdAt(file: string, seconds: number): number {
    const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', 'crop=iw:ih/3:0:ih*2/3,format=gray', '-f', 'rawvideo', '-'], { maxBuffer: 1 << 24 });
    expect(r.status).toBe(0);
    const px = r.stdout as Buffer;
    expect(px.length).toBeGreaterThan(0);
    return px.reduce((s, v) => s + v, 0) / px.length;
  }

  test('a burn draws the cue on its frames only, and is a download of the track for those who may watch', async () => {
    const queued = await admin.json('POST', `/api/media/${item.id}/captions/${track.id}/burn`);
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    expect(queued.body).toMatchObject({ status: 'queued', current: true, url: null });
    const ready = await until('the burn ready', async () => {
      const t = (await tracksOf(item.id, versionId)).find((x) => x.id === track.id);
      if (t?.burns[0]?.status === 'failed') throw new Error(`burn failed: ${t.burns[0].error}`);
      return t?.downloads.burnt ? t : null;
    }, 120_000);
    expect(ready.burns[0]).toMatchObject({ id: queued.body.id, status: 'ready', current: true });

    const res = await admin.get(pathOf(ready.downloads.burnt));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    const file = path.join(dir, 'burnt.mp4');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    // The film is black: white letters raise the lower third's brightness while the cue shows.
    expect(lowerThirdAt(file, 2)).toBeGreaterThan(lowerThirdAt(file, 0.4) + 3);
    expect(lowerThirdAt(file, 0.4)).toBeLessThan(2);
    expect(lowerThirdAt(file, 3.6)).toBeLessThan(2);

    // The assigned client downloads it; another client and the signed-out do not.
    expect((await owner.get(pathOf(ready.downloads.burnt))).status).toBe(200);
    expect((await stranger.get(pathOf(ready.downloads.burnt))).status).toBe(404);
    expect((await fetch(new URL(pathOf(ready.downloads.burnt), server.url))).status).toBe(404);
  });

  test('a burn of another item’s track is not found; a client may not ask for one', async () => {
    expect((await admin.json('POST', `/api/media/${item.id + 1000}/captions/${track.id}/burn`)).status).toBe(404);
    const asClient = await owner.json('POST', `/api/media/${item.id}/captions/${track.id}/burn`);
    expect(asClient.status).toBe(401);
  });

  // Every write needs edit:media, reading the list view:media: a staff user who may only watch
  // changes nothing, and one who may not watch reads nothing.
  test.each([
    ['view:media only', ['view:media'], 403, 200],
    ['share:media only', ['share:media'], 403, 403],
  ])('staff with %s: writes %i, list %i', async (_name, permissions, writes, list) => {
    const u = await createStaffUser(server, { permissions });
    const s = await staffSession(server.url, u.username, u.password);
    const base = `/api/media/${item.id}`;
    const answers = {
      upload: (await uploadCaption(s, item.id, versionId, srt([[0, 1000, 'Not mine to add']]), { language: 'de' })).status,
      edit: (await s.json('PATCH', `${base}/captions/${track.id}`, { label: 'Renamed' })).status,
      burn: (await s.json('POST', `${base}/captions/${track.id}/burn`)).status,
      carry: (await s.json('POST', `${base}/versions/${versionId}/captions/carry-over`)).status,
      remove: (await s.json('DELETE', `${base}/captions/${track.id}`)).status,
    };
    expect(answers).toEqual({ upload: writes, edit: writes, burn: writes, carry: writes, remove: writes });
    expect((await s.json('GET', `${base}/versions/${versionId}/captions`)).status).toBe(list);
    // Nothing changed.
    const tracks = await tracksOf(item.id, versionId);
    expect(tracks.map((t) => [t.language, t.label])).toEqual([['en', track.label]]);
  });
});
