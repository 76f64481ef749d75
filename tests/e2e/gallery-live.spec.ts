// Gallery pages update themselves (issue 53) over the tab's event stream: a watermarked link opened
// before its copies are made shows each one as a worker makes it, and a client's page shows the
// images the studio adds and a list reopened with its note, all without a reload. The web server
// runs without its worker (WORKER=off), so the copies are made by a worker process started when
// the page is already open.
import type { ChildProcess } from 'node:child_process';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN, storeCookieChoice } from './fixtures.ts';
import { islandsReady } from './admin-helpers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { spawnApp, stopProcess } from '../helpers/processes.ts';
import { Session, staffSession } from '../helpers/http.ts';
import { createClientWithPortalLogin } from '../helpers/portal-fixtures.ts';
import { shotJpeg } from '../helpers/proofing.ts';
import { until } from '../helpers/until.ts';

let server: TestServer | null = null;
let admin: Session;
const ownServer = async () => {
  if (!server) {
    server = await startServer({ env: { WORKER: 'off' } });
    admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  }
  return server;
};
test.afterAll(async () => {
  await server?.stop();
  server = null;
});

async function uploadShot(name: string, colour: string): Promise<number> {
  const form = new FormData();
  form.set('title', name.replace('.jpg', ''));
  form.set('file', new Blob([new Uint8Array(await shotJpeg({ name, width: 1200, height: 800, colour }))], { type: 'image/jpeg' }), name);
  const r = await admin.json('POST', '/api/media', form);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

async function makeGallery(title: string, count: number) {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(await uploadShot(`LIVE_${String(i + 1).padStart(2, '0')}.jpg`, ['#7c2d12', '#1e3a8a', '#14532d', '#581c87'][i % 4]!));
  const g = await admin.json('POST', '/api/galleries', { title, mediaIds: ids });
  expect(g.status, JSON.stringify(g.body)).toBe(201);
  return g.body as { id: number };
}

async function browserPage(browser: import('@playwright/test').Browser, s: TestServer): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: s.url });
  await storeCookieChoice(ctx);
  return ctx.newPage();
}

const tiles = (page: Page) => page.getByTestId('still-tile');

test('a watermarked gallery link opened before its copies are made shows each copy and the cover as the worker makes them, without a reload', async ({ browser }) => {
  test.setTimeout(180_000);
  const s = await ownServer();
  const g = await makeGallery('Marked live', 3);
  const made = await admin.json('POST', `/api/galleries/${g.id}/links`, { name: 'Marked proofs', watermark: true });
  expect(made.status).toBe(201);
  const page = await browserPage(browser, s);
  let worker: ChildProcess | null = null;
  try {
    await page.goto(new URL(made.body.url).pathname);
    await islandsReady(page);
    await expect(tiles(page)).toHaveCount(3);
    await expect(page.getByText('Preparing the watermarked copy…')).toHaveCount(3);
    await expect(page.getByTestId('gallery-hero').locator('img')).toHaveCount(0);

    let log = '';
    worker = spawnApp('scripts/worker.mjs', [], { ...process.env, DATABASE_URL: s.databaseUrl, MEDIA_DIR: s.mediaDir, DEMO_CONTENT: 'false', ADMIN_PASSWORD: ADMIN.password, JOB_POLL_MS: '50', FFMPEG_NICE: '0' });
    worker.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    worker.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    await until('the worker', async () => log.includes('STUDIO_WORKER_READY'), 60_000);

    // Each tile shows its marked copy as it is made; the cover too.
    await expect(page.getByText('Preparing the watermarked copy…')).toHaveCount(0, { timeout: 90_000 });
    await expect(tiles(page).locator('img')).toHaveCount(3);
    for (const img of await tiles(page).locator('img').all()) await expect(img).toHaveAttribute('src', /\/marked\.jpg$/);
    await expect(page.getByTestId('gallery-hero').locator('img')).toHaveAttribute('src', /\/marked\.jpg$/);
    await expect.poll(() => page.getByTestId('gallery-hero').locator('img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);

    // Opened now, the first screen shows them at once.
    await page.reload();
    await expect(tiles(page).locator('img')).toHaveCount(3);
    await expect(page.getByText('Preparing the watermarked copy…')).toHaveCount(0);
  } finally {
    if (worker) await stopProcess(worker, 'SIGTERM');
    await page.context().close();
  }
});

test("a client's gallery page shows images the studio adds and a list reopened with its note, without a reload", async ({ browser }) => {
  test.setTimeout(180_000);
  const s = await ownServer();
  const login = await createClientWithPortalLogin(s, 'Live Couple');
  const g = await makeGallery('Live wedding', 2);
  const list = await admin.json('POST', `/api/galleries/${g.id}/lists`, { name: 'Pick 1', minCount: 1, maxCount: 1 });
  expect(list.status).toBe(201);
  expect((await admin.json('PUT', `/api/galleries/${g.id}/clients`, { clientIds: [login.clientId] })).status).toBe(200);
  const page = await browserPage(browser, s);
  try {
    expect((await page.request.post('/api/client/login', { data: { username: login.username, password: login.password } })).status()).toBe(200);
    const view = await (await page.request.get(`/api/client/galleries/${g.id}`)).json();
    const origin = { headers: { Origin: s.url } };
    expect((await page.request.put(`/api/client/galleries/${g.id}/lists/${list.body.id}/picks/${view.images[0].id}`, origin)).status()).toBe(200);
    expect((await page.request.post(`/api/client/galleries/${g.id}/lists/${list.body.id}/submit`, origin)).status()).toBe(200);
    await page.goto(`/client/galleries/${g.id}`);
    await islandsReady(page);
    await expect(tiles(page)).toHaveCount(2);
    await expect(page.getByTestId('submitted')).toBeVisible();

    // The studio adds a photo: it joins the grid and the count.
    const added = await uploadShot('LIVE_ADDED.jpg', '#713f12');
    expect((await admin.json('POST', `/api/galleries/${g.id}/images`, { mediaIds: [added] })).status).toBe(201);
    await expect(tiles(page)).toHaveCount(3);
    await expect(page.getByTestId('gallery-hero')).toContainText('3 photos');

    // The studio reopens the list with a note: the note shows and the list can be changed.
    const [selection] = (await admin.json('GET', `/api/galleries/${g.id}/selections`)).body;
    expect((await admin.json('POST', `/api/galleries/${g.id}/selections/${selection.id}/reopen`, { note: 'One more look, please.' })).status).toBe(200);
    await expect(page.getByRole('note')).toContainText('The studio reopened “Pick 1”: One more look, please.');
    await expect(page.getByTestId('submitted')).toHaveCount(0);
    await expect(page.getByTestId('pick-bar').getByRole('button', { name: 'Submit' })).toBeEnabled();
  } finally {
    await page.context().close();
  }
});
