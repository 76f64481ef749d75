// Full quality stays behind closed gates (issue 40, item 4): a client whose downloads wait for
// approval, and share links that offer no original ("No downloads", "Preview only") or hold it
// back until approval, play proxies of at most 1080p, see images of at most 2,048 px, and get
// nothing that is the original's streams (a remux's copy), in their playback answers, in the
// HLS master they are given and by asking for the files by name. What was fetched is measured
// (ffprobe of the bytes, a digest of each stream, sharp's size of the image), not only the
// status. Approval opens the gate again: the 2160p proxy, the full-size WebP, the copy.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { sampleImage, upload } from '../helpers/media-uploads.ts';
import { sizedSource } from '../helpers/video-sources.ts';
import { parseMaster } from '../helpers/hls.ts';
import { until } from '../helpers/until.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gated-quality-'));
let server: TestServer;
let admin: Session;
let client: Session;
let clientId: number;
const items: Record<'uhd' | 'remux' | 'photo', { id: number; key: string }> = {} as any;
const links: Record<'none' | 'preview' | 'gated' | 'open', { token: string; visitor: Session }> = {} as any;

/** The bytes of `url` as `s` gets them (200), kept in a file for ffprobe. */
async function fetched(s: Session, url: string): Promise<string> {
  const res = await s.get(url);
  expect(res.status, url).toBe(200);
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}-${url.split('?')[0]!.split('/').pop()}`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

// Asynchronous, so the event loop keeps running while they do: a client blocked for seconds
// cannot drop its idle kept-alive connections in time, and the next request finds one the
// server has just closed.
const run = promisify(execFile);

async function videoSize(file: string): Promise<{ width: number; height: number }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'json', file]);
  const s = JSON.parse(stdout).streams[0];
  return { width: s.width, height: s.height };
}

/** An MD5 of one stream's packets ('v' or 'a'): equal only when the stream was copied. */
async function streamDigest(file: string, kind: 'v' | 'a'): Promise<string> {
  return (await run('ffmpeg', ['-v', 'error', '-i', file, '-map', `0:${kind}:0`, '-c', 'copy', '-f', 'md5', '-'])).stdout.trim();
}

async function uploaded(file: string, fields: Record<string, string>) {
  const up = await upload(admin, { title: path.basename(file), ...fields }, { data: fs.readFileSync(file), name: path.basename(file) });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  return up.body as { id: number; url: string };
}

// Measuring (ffprobe, ffmpeg) runs after a test's requests, not between them: under load it
// takes seconds, long enough for the server to close an idle kept-alive connection.
const originalDigest = { v: '', a: '' };

beforeAll(async () => {
  const sources = { uhd: sizedSource('3840x2160'), remux: sizedSource('1280x720', 'remux'), photo: path.join(tmp, 'photo.jpg') };
  fs.writeFileSync(sources.photo, await sampleImage('jpeg', 3000, 2000));
  originalDigest.v = await streamDigest(sources.remux, 'v');
  originalDigest.a = await streamDigest(sources.remux, 'a');
  server = await startServer({ env: { JOB_POLL_MS: '200' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const c = await createClientWithLogin(server, { name: 'Gated Films' });
  clientId = c.clientId;
  client = await clientSession(server.url, c.username, c.password);
  expect((await admin.json('PUT', `/api/clients/${clientId}/downloads`, { downloadsAfterApproval: true })).status).toBe(200);
  const owned = { clientId: String(clientId) };
  // 4K (transcoded: 2160p, 1080p, 720p, 360p), 720p H.264/AAC (remuxed: the 720p rung is the
  // original's streams, the 360p one an encode), a 3,000 px photo.
  const uhd = await uploaded(sources.uhd, owned);
  const remux = await uploaded(sources.remux, owned);
  const photo = await uploaded(sources.photo, owned);
  const keyOf = (u: { url: string }) => u.url.split('/')[2]!;
  items.uhd = { id: uhd.id, key: keyOf(uhd) };
  items.remux = { id: remux.id, key: keyOf(remux) };
  items.photo = { id: photo.id, key: keyOf(photo) };
  await until('the ladders', async () => {
    const [u, r] = await Promise.all([uhd.id, remux.id].map(async (id) => (await admin.json('GET', `/api/media/${id}/processing`)).body));
    return u.processingStatus === 'ready' && u.renditions.length === 4 && r.processingStatus === 'ready' && r.renditions.length === 2;
  }, 240_000);
  const mediaIds = [uhd.id, remux.id, photo.id];
  const make = async (extra: Record<string, unknown>) => {
    const r = await admin.json('POST', '/api/share-links', { name: 'Review', mediaIds, ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const token = new URL(r.body.url).pathname.split('/').pop()!;
    const visitor = new Session(server.url);
    expect((await visitor.get(`/s/${token}`)).status).toBe(200);
    return { token, visitor };
  };
  links.none = await make({ download: 'none' });
  links.preview = await make({ download: 'preview' });
  links.gated = await make({ download: 'original', downloadsAfterApproval: true });
  links.open = await make({ download: 'original' });
}, 300_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** What a viewer's player is given for an item, in one shape for portal and share view. */
interface Shown {
  playbackUrl: string | null;
  renditions: { label: string; url: string; width: number; height: number }[];
  streamUrl: string | null;
  image: string | null;
}

interface Viewer {
  session: () => Session;
  /** Every item as the viewer's API shows it, once nothing waits for a preview. */
  view: () => Promise<Record<number, Shown>>;
  /** The address of one of the item's files by name, as this viewer would ask for it. */
  file: (item: keyof typeof items, name: string) => string;
}

const portal: Viewer = {
  session: () => client,
  view: () =>
    until('the portal without pending previews', async () => {
      const list = (await client.json('GET', '/api/client/media')).body as any[];
      const mine = list.filter((m) => Object.values(items).some((i) => i.id === m.id));
      if (mine.length !== 3 || mine.some((m) => (m.type === 'video' ? !m.playbackUrl : !m.webpUrl))) return null;
      return Object.fromEntries(mine.map((m) => [m.id, { playbackUrl: m.playbackUrl, renditions: m.renditions, streamUrl: m.streamUrl, image: m.webpUrl }]));
    }, 120_000),
  file: (item, name) => `/media/${items[item].key}/${name}`,
};

function linkViewer(which: keyof typeof links): Viewer {
  return {
    session: () => links[which].visitor,
    view: () =>
      until(`the ${which} link without pending previews`, async () => {
        const view = (await links[which].visitor.json('GET', `/api/share/${links[which].token}`)).body;
        if (view.items.some((i: any) => i.previewPending)) return null;
        return Object.fromEntries(view.items.map((m: any) => [m.id, { playbackUrl: m.playbackUrl, renditions: m.renditions, streamUrl: m.streamUrl, image: m.imageUrl }]));
      }, 120_000),
    file: (item, name) => `/s/${links[which].token}/m/${items[item].id}/${name}`,
  };
}

const CLOSED: [string, Viewer][] = [
  ['a client whose downloads wait for approval', portal],
  ['a "No downloads" link', linkViewer('none')],
  ['a "Preview only" link', linkViewer('preview')],
  ['an "Original downloads" link that waits for approval', linkViewer('gated')],
];

const short = (s: { width: number; height: number }) => Math.min(s.width, s.height);

async function fetchedAll(s: Session, urls: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const url of urls) out.push(await fetched(s, url));
  return out;
}

/** Every size the viewer's master names, each of its media playlists fetched. */
async function masterSizes(s: Session, streamUrl: string): Promise<number[]> {
  const res = await s.get(streamUrl);
  expect(res.status).toBe(200);
  const entries = parseMaster(await res.text());
  const sizes: number[] = [];
  for (const e of entries) {
    const playlist = new URL(e.uri, new URL(streamUrl, server.url));
    expect((await s.get(playlist.pathname + playlist.search)).status, e.uri).toBe(200);
    sizes.push(Math.min(...e.resolution));
  }
  return sizes;
}

describe('behind a closed gate', () => {
  test('the sources are what the cases need: staff get a 2160p proxy, a copied 720p and a 3,000 px WebP', async () => {
    const uhd = (await admin.json('GET', `/api/media/${items.uhd.id}/processing`)).body;
    expect(uhd.renditions.map((r: any) => r.label)).toEqual(['2160p', '1080p', '720p', '360p']);
    const [top, copy, encode, photo] = await fetchedAll(admin, [`/media/${items.uhd.key}/2160p.mp4`, `/media/${items.remux.key}/720p.mp4`, `/media/${items.remux.key}/360p.mp4`, `/media/${items.photo.key}/full.webp`]);
    expect(await videoSize(top!)).toEqual({ width: 3840, height: 2160 });
    // The digest sees a copy: the remux's 720p is the original's picture, its 360p is not. (Its
    // sound is made again, so it starts at 0 with the picture: issue 39.)
    expect(await streamDigest(copy!, 'v')).toBe(originalDigest.v);
    expect(await streamDigest(copy!, 'a')).not.toBe(originalDigest.a);
    expect(await streamDigest(encode!, 'v')).not.toBe(originalDigest.v);
    expect((await sharp(photo!).metadata()).width).toBe(3000);
  });

  test.each(CLOSED)('%s: the 4K video plays up to 1080p (playback answer, master playlist, files by name)', async (_name, viewer) => {
    const s = viewer.session();
    const shown = (await viewer.view())[items.uhd.id]!;
    expect(shown.renditions.map((r) => r.label)).toEqual(['1080p', '720p', '360p']);
    const urls = [shown.playbackUrl!, ...shown.renditions.map((r) => r.url)];
    const files = await fetchedAll(s, urls);
    expect(await masterSizes(s, shown.streamUrl!)).toEqual([1080, 720, 360]);
    for (const name of ['2160p.mp4', '2160p.m3u8']) expect((await s.get(viewer.file('uhd', name))).status, name).toBe(404);
    for (const [i, file] of files.entries()) expect(short(await videoSize(file)), urls[i]).toBeLessThanOrEqual(1080);
  });

  test.each(CLOSED)("%s: the remuxed video plays an encode of at most 720p, nothing of the original's streams", async (_name, viewer) => {
    const s = viewer.session();
    const shown = (await viewer.view())[items.remux.id]!;
    const urls = [shown.playbackUrl!, ...shown.renditions.map((r) => r.url)];
    const files = await fetchedAll(s, urls);
    expect(shown.streamUrl).toBeNull();
    for (const name of ['720p.mp4', '720p.m3u8', 'original.mp4']) expect((await s.get(viewer.file('remux', name))).status, name).not.toBe(200);
    for (const [i, file] of files.entries()) {
      expect(short(await videoSize(file)), urls[i]).toBeLessThanOrEqual(720);
      expect(await streamDigest(file, 'v'), urls[i]).not.toBe(originalDigest.v);
      expect(await streamDigest(file, 'a'), urls[i]).not.toBe(originalDigest.a);
    }
  });

  test.each(CLOSED)('%s: the photo is shown at most 2,048 px; the full-size WebP is refused', async (_name, viewer) => {
    const s = viewer.session();
    const shown = (await viewer.view())[items.photo.id]!;
    const meta = await sharp(await fetched(s, shown.image!)).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(2048);
    expect((await s.get(viewer.file('photo', 'full.webp'))).status).toBe(404);
  });

  test('an ungated "Original downloads" link plays the whole ladder meanwhile', async () => {
    const viewer = linkViewer('open');
    const shown = (await viewer.view())[items.uhd.id]!;
    expect(shown.renditions.map((r) => r.label)).toEqual(['2160p', '1080p', '720p', '360p']);
    expect(await masterSizes(links.open.visitor, shown.streamUrl!)).toEqual([1080, 2160, 720, 360]);
    const [top] = await fetchedAll(links.open.visitor, [viewer.file('uhd', '2160p.mp4')]);
    expect((await videoSize(top!)).height).toBe(2160);
  });
});

describe('approval opens the gates, not the link options', () => {
  beforeAll(async () => {
    for (const item of Object.values(items)) {
      expect((await client.json('PUT', `/api/client/media/${item.id}/approval`, { status: 'approved', version: 1 })).status).toBe(200);
    }
  });

  test.each([
    ['the client', portal],
    ['the "Original downloads" link that waited', linkViewer('gated')],
  ] as const)('%s: the 2160p proxy, the copy and the full-size WebP', async (_name, viewer) => {
    const s = viewer.session();
    const shown = await viewer.view();
    expect(shown[items.uhd.id]!.renditions.map((r) => r.label)).toEqual(['2160p', '1080p', '720p', '360p']);
    expect(await masterSizes(s, shown[items.uhd.id]!.streamUrl!)).toEqual([1080, 2160, 720, 360]);
    const [top, copy, photo] = await fetchedAll(s, [viewer.file('uhd', '2160p.mp4'), viewer.file('remux', '720p.mp4'), shown[items.photo.id]!.image!]);
    expect((await videoSize(top!)).height).toBe(2160);
    expect(await streamDigest(copy!, 'v')).toBe(originalDigest.v);
    expect((await sharp(photo!).metadata()).width).toBe(3000);
  });

  test.each([
    ['"No downloads"', 'none'],
    ['"Preview only"', 'preview'],
  ] as const)('a %s link still plays up to 1080p', async (_name, which) => {
    const viewer = linkViewer(which);
    const shown = (await viewer.view())[items.uhd.id]!;
    expect(shown.renditions.map((r) => r.label)).toEqual(['1080p', '720p', '360p']);
    expect(await masterSizes(links[which].visitor, shown.streamUrl!)).toEqual([1080, 720, 360]);
    expect((await links[which].visitor.get(viewer.file('uhd', '2160p.mp4'))).status).toBe(404);
    expect((await links[which].visitor.get(viewer.file('photo', 'full.webp'))).status).toBe(404);
  });
});
