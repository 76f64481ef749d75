// HLS playlists obey exactly the access rules of the files they point to (issue 33): the
// master and media playlists of a private item are refused wherever its proxies are (signed
// out, another client), served to staff and its client; under a share link they are served
// where the link shows the clean proxies, refused once it is revoked and on a watermarked link
// (whose viewer gets one watermarked size and no stream). Byte ranges named by a playlist are
// served as 206 where the proxy is.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { Session, clientSession, staffSession } from '../helpers/http.ts';
import { createClientWithLogin } from '../helpers/accounts.ts';
import { upload } from '../helpers/media-uploads.ts';
import { until } from '../helpers/until.ts';
import { sizedSource } from '../helpers/video-sources.ts';
import { parseMaster, parseMedia } from '../helpers/hls.ts';

let server: TestServer;
let admin: Session;
let owner: Session;
let stranger: Session;
let item: any;
let ownerId: number;

const pathOf = (url: string, base = server.url) => {
  const u = new URL(url, base);
  return u.pathname + u.search;
};

/** Every playlist of a version and the first segment's range, as addresses under `streamUrl`'s folder. */
async function streamAddresses(s: Session, streamUrl: string) {
  const master = await s.get(pathOf(streamUrl));
  expect(master.status).toBe(200);
  const base = new URL(streamUrl, server.url);
  const media = parseMaster(await master.text()).map((e) => new URL(e.uri, base).href);
  const first = parseMedia(await (await s.get(pathOf(media[0]!))).text());
  const seg = first.segments[0]!;
  return { master: pathOf(streamUrl), media: media.map((m) => pathOf(m)), segment: { url: pathOf(new URL(seg.uri, media[0]).href), range: `bytes=${seg.offset}-${seg.offset + seg.length - 1}`, length: seg.length } };
}

beforeAll(async () => {
  server = await startServer({ env: { JOB_POLL_MS: '200' } });
  admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const a = await createClientWithLogin(server, { name: 'Owner Films' });
  const b = await createClientWithLogin(server, { name: 'Other Co' });
  ownerId = a.clientId;
  owner = await clientSession(server.url, a.username, a.password);
  stranger = await clientSession(server.url, b.username, b.password);
  const file = sizedSource('1280x720');
  const up = await upload(admin, { title: 'Private cut', clientId: String(a.clientId) }, { data: fs.readFileSync(file), name: path.basename(file) });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  item = await until('the ladder', async () => {
    const live = (await admin.json('GET', `/api/media/${up.body.id}/processing`)).body;
    return live.processingStatus === 'ready' ? { ...up.body, ...live } : null;
  }, 120_000);
  expect(item.renditions.map((r: any) => r.label)).toEqual(['720p', '360p']);
  expect(item.streamUrl).toMatch(/\/master\.m3u8\?v=\d+$/);
}, 150_000);
afterAll(() => server?.stop());

describe('a private item', () => {
  test('staff and its client get the playlists and the ranges they name; signed out and another client get 404 for every one', async () => {
    const at = await streamAddresses(admin, item.streamUrl);
    expect(at.media).toHaveLength(2);
    // Its client sees the same stream address in the portal and may follow it.
    const portal = (await owner.json('GET', '/api/client/media')).body.find((m: any) => m.id === item.id);
    expect(portal.streamUrl).toBe(item.streamUrl);
    for (const s of [admin, owner]) {
      for (const url of [at.master, ...at.media]) expect((await s.get(url)).status, url).toBe(200);
      const seg = await s.get(at.segment.url, { Range: at.segment.range });
      expect(seg.status).toBe(206);
      expect(Buffer.from(await seg.arrayBuffer()).toString('latin1', 4, 8)).toBe('moof');
    }
    for (const s of [new Session(server.url), stranger]) {
      for (const url of [at.master, ...at.media, at.segment.url]) expect((await s.get(url, { Range: at.segment.range })).status, url).toBe(404);
    }
  });
});

describe('through a share link', () => {
  async function link(extra: Record<string, unknown>) {
    const r = await admin.json('POST', '/api/share-links', { name: 'Review', mediaIds: [item.id], ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const token = new URL(r.body.url).pathname.split('/').pop()!;
    const visitor = new Session(server.url);
    expect((await visitor.get(`/s/${token}`)).status).toBe(200);
    return { id: r.body.id as number, token, visitor };
  }

  test('a clean link streams under its own address; revoked, every playlist and range is refused', async () => {
    const { id, token, visitor } = await link({ download: 'none' });
    const view = (await visitor.json('GET', `/api/share/${token}`)).body.items[0];
    expect(view.streamUrl).toMatch(new RegExp(`^/s/${token}/m/${item.id}/master\\.m3u8\\?v=\\d+$`));
    const at = await streamAddresses(visitor, view.streamUrl);
    // The media playlists resolve under the link too, never to /media/.
    for (const url of [at.master, ...at.media, at.segment.url]) expect(url.startsWith(`/s/${token}/`), url).toBe(true);
    const seg = await visitor.get(at.segment.url, { Range: at.segment.range });
    expect([seg.status, Number(seg.headers.get('content-length'))]).toEqual([206, at.segment.length]);
    // The link's visitor has no way into /media/ with it.
    expect((await visitor.get(pathOf(item.streamUrl))).status).toBe(404);

    expect((await admin.json('DELETE', `/api/share-links/${id}`)).status).toBe(200);
    for (const url of [at.master, ...at.media, at.segment.url]) expect((await visitor.get(url, { Range: at.segment.range })).status, url).toBe(404);
  });

  test('a watermarked link gets one watermarked size: no stream address, and the clean playlists are refused by name', async () => {
    const { token, visitor } = await link({ watermark: true, download: 'none' });
    const view = await until('the watermarked preview', async () => {
      const v = (await visitor.json('GET', `/api/share/${token}`)).body.items[0];
      return v.previewPending ? null : v;
    }, 90_000);
    expect(view).toMatchObject({ streamUrl: null, renditions: [] });
    expect(view.playbackUrl).toMatch(/\/lp-[a-f0-9]{24}\.mp4\?v=\d+$/);
    for (const name of ['master.m3u8', '720p.m3u8', '360p.m3u8', '720p.mp4', '360p.mp4']) {
      expect((await visitor.get(`/s/${token}/m/${item.id}/${name}`)).status, name).toBe(404);
    }
  });
});

describe('a client set to watermarked previews', () => {
  test('gets no stream address and is refused every playlist', async () => {
    expect((await admin.json('PUT', `/api/clients/${ownerId}/watermark`, { watermark: true })).status).toBe(200);
    try {
      const shown = await until('the client preview', async () => {
        const m = (await owner.json('GET', '/api/client/media')).body.find((x: any) => x.id === item.id);
        return m.playbackUrl ? m : null;
      }, 90_000);
      expect(shown.streamUrl).toBeNull();
      const key = /\/media\/([a-f0-9]{32})\//.exec(item.streamUrl)![1];
      for (const name of ['master.m3u8', '720p.m3u8', '360p.m3u8']) expect((await owner.get(`/media/${key}/${name}`)).status, name).toBe(404);
    } finally {
      await admin.json('PUT', `/api/clients/${ownerId}/watermark`, { watermark: false });
    }
  });
});
