// Demo media seeded on a fresh database (DEMO_CONTENT on), and the clean-up of what a
// crashed upload can leave in MEDIA_DIR.
import fs from 'node:fs';
import sharp from 'sharp';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, DEMO_CLIENT, type TestServer } from '../helpers/server.ts';
import { Session, clientSession } from '../helpers/http.ts';
import { adminSession } from '../helpers/accounts.ts';
import { uploadImage } from '../helpers/media-uploads.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let admin: Session;
let dir: string;
const staleKey = 'a'.repeat(32);
const freshKey = 'b'.repeat(32);
const old = new Date(Date.now() - 7 * 60 * 60 * 1000);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-demo-'));
  // Left-overs of an upload that died with its process: one old, one recent (still in progress).
  for (const key of [staleKey, freshKey]) {
    fs.mkdirSync(path.join(dir, 'media', key), { recursive: true });
    fs.writeFileSync(path.join(dir, 'media', key, '.tmp-0123456789abcdef'), 'partial');
  }
  fs.utimesSync(path.join(dir, 'media', staleKey), old, old);
  server = await startServer({ dir, env: { DEMO_CONTENT: 'true' } });
  admin = await adminSession(server.url);
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('demo media', () => {
  test('images and videos with derivatives, tags, flags and the demo client', async () => {
    const { body: items } = await admin.json('GET', '/api/media');
    const images = items.filter((m: any) => m.type === 'image');
    const videos = items.filter((m: any) => m.type === 'video');
    expect(images.length).toBeGreaterThanOrEqual(3);
    expect(videos.length).toBeGreaterThanOrEqual(2);
    expect(items[0].title).toBe('Coastal Communities Documentary Trailer'); // newest first
    // The library's images are 16:9 (the proofing demo's stills live in its gallery, issue 53).
    for (const m of images) expect(m).toMatchObject({ width: 1280, height: 720, thumbnailUrl: expect.stringMatching(/thumb\.jpg$/), webpUrl: expect.stringMatching(/full\.webp$/) });
    for (const m of videos) expect(m).toMatchObject({ durationSeconds: 3, posterUrl: expect.stringMatching(/poster\.jpg$/) });
    const tags = new Set(items.flatMap((m: any) => m.tags));
    for (const t of ['corporate', 'music video', 'commercial', 'documentary']) expect(tags).toContain(t);
    expect(items.some((m: any) => m.isFeatured)).toBe(true);
    expect(items.some((m: any) => m.showInPortfolio)).toBe(true);
    const assigned = items.filter((m: any) => m.assignedClients.length);
    expect(assigned.length).toBeGreaterThanOrEqual(2);
    expect(assigned.some((m: any) => !m.isFeatured && !m.showInPortfolio)).toBe(true);

    // Every URL the items name is served (to the admin).
    for (const m of items) {
      for (const u of [m.url, m.thumbnailUrl, m.thumbnailWebpUrl, m.webpUrl, m.posterUrl].filter(Boolean)) {
        const res = await admin.get(u);
        expect(res.status, u).toBe(200);
        await res.arrayBuffer();
      }
    }
  });

  test('demo images fill their cards: no letterbox bars across the top or bottom (issue 53)', async () => {
    const { body: items } = await admin.json('GET', '/api/media');
    const images = items.filter((m: any) => m.type === 'image');
    for (const m of images) {
      const { data, info } = await sharp(Buffer.from(await (await admin.get(m.thumbnailUrl)).arrayBuffer())).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      // The brightest value in each of the top and bottom 5% of rows: a black bar is 0 or near it.
      const rows = Math.ceil(info.height * 0.05);
      const brightest = (from: number) => Math.max(...data.subarray(from * info.width * info.channels, (from + rows) * info.width * info.channels));
      expect(brightest(0), `${m.title}: top`).toBeGreaterThan(24);
      expect(brightest(info.height - rows), `${m.title}: bottom`).toBeGreaterThan(24);
    }
  });

  test('the demo client sees its private items; the public does not', async () => {
    const { body: items } = await admin.json('GET', '/api/media');
    const privateAssigned = items.find((m: any) => m.assignedClients.length && !m.isFeatured && !m.showInPortfolio);
    const client = await clientSession(server.url, DEMO_CLIENT.username, DEMO_CLIENT.password);
    const mine = await client.get(privateAssigned.thumbnailUrl);
    expect(mine.status).toBe(200);
    await mine.arrayBuffer();
    expect((await new Session(server.url).get(privateAssigned.thumbnailUrl)).status).toBe(404);
  });

  test('a proofing gallery to try (issue 42): shared with the demo client, two sets, a list to pick for, its sizes made by the queue', async () => {
    const client = await clientSession(server.url, DEMO_CLIENT.username, DEMO_CLIENT.password);
    const mine = await client.json('GET', '/api/client/galleries');
    expect(mine.body.map((g: any) => g.title)).toEqual(['Harbour Documentary · Set Stills']);
    const id = mine.body[0].id;
    const view = await client.json('GET', `/api/client/galleries/${id}`);
    expect(view.status).toBe(200);
    expect(view.body.lists).toEqual([expect.objectContaining({ name: 'Pick 3 for the poster', minCount: 1, maxCount: 3, count: 0 })]);
    expect(view.body.images).toHaveLength(8);
    // Sorted by file name, in two sets.
    const names = view.body.images.map((i: any) => i.name);
    expect(names).toEqual([...names].sort());
    expect(names.every((n: string) => /^DSC_\d{4}\.jpg$/.test(n))).toBe(true);
    const { body: staffView } = await admin.json('GET', `/api/galleries/${id}`);
    expect(staffView.sets.map((s: any) => s.name)).toEqual(['Dawn at the pier', 'Portraits']);
    expect(staffView.coverMediaId).toBe(staffView.images.find((i: any) => i.filename === names[0]).mediaId);
    // The gallery's own stills (issue 53): not in the library, the portfolio or anyone's
    // assigned media; the gallery shares them. They are 3:2 and 2:3, as a camera makes them.
    const { body: items } = await admin.json('GET', '/api/media');
    expect(items.filter((m: any) => m.tags.includes('stills'))).toEqual([]);
    for (const i of staffView.images) expect([i.width, i.height].sort((a: number, b: number) => a - b)).toEqual([800, 1200]);
    // The worker in the server makes every image's gallery sizes.
    const readyCount = async () => (await admin.json('GET', `/api/galleries/${id}`)).body.images.filter((im: any) => im.ready).length;
    await until('every gallery size made', async () => (await readyCount()) === 8, 60_000);
    expect(await readyCount()).toBe(8);
  }, 90_000);

  test("the demo client's Need Help shows a way to reach the studio (issue 39): the demo stores the footer's contact details", async () => {
    const client = await clientSession(server.url, DEMO_CLIENT.username, DEMO_CLIENT.password);
    // React's server render separates text parts with empty comments.
    const page = (await (await client.get('/client/dashboard')).text()).replaceAll('<!-- -->', '');
    const help = page.slice(page.indexOf('Need Help?'));
    expect(help).toContain('href="mailto:hello@studio.example"');
    expect(help).toContain('href="tel:');
    expect(help).not.toContain('Contact your project manager for help.');
    // They are still the placeholders: the dashboard keeps asking for the studio's own.
    const dash = (await (await admin.get('/admin/dashboard')).text()).replaceAll('<!-- -->', '');
    expect(dash).toContain('Placeholder contact details are live.');
  });
});

describe('left-overs of crashed uploads', () => {
  test('old orphan folders and scratch files are removed after the first upload; recent ones stay', async () => {
    const demoKey = (await server.sql.execute('SELECT storage_key FROM media LIMIT 1')).rows[0]!.storage_key as string;
    const oldScratch = path.join(server.mediaDir, demoKey, '.tmp-00000000000000ff');
    fs.writeFileSync(oldScratch, 'partial');
    fs.utimesSync(oldScratch, old, old);
    await uploadImage(admin);
    for (let i = 0; i < 50 && fs.existsSync(path.join(server.mediaDir, staleKey)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(fs.existsSync(path.join(server.mediaDir, staleKey))).toBe(false);
    expect(fs.existsSync(oldScratch)).toBe(false);
    expect(fs.existsSync(path.join(server.mediaDir, freshKey, '.tmp-0123456789abcdef'))).toBe(true);
    expect(fs.readdirSync(path.join(server.mediaDir, demoKey)).length).toBeGreaterThan(0);
  });
});
