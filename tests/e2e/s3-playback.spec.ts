// Media kept in S3 and answered with presigned redirects, in a real browser (issue 18): the
// watch page's video plays from the bucket and its poster loads, which needs the page's CSP to
// allow the bucket's origin; the admin card's thumbnail and the review player work the same
// way. A single-node Ceph radosgw (scripts/radosgw) is started for this file.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { test, expect, ADMIN } from './fixtures.ts';
import { islandsReady, makeVideo, tempDir } from './admin-helpers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startRadosgw } from '../helpers/radosgw.ts';

test.describe.configure({ mode: 'serial' });

let rgw: ReturnType<typeof startRadosgw> | null = null;
let s3Server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  rgw = startRadosgw();
  const env = rgw.env;
  const bucket = `e2e-${randomBytes(5).toString('hex')}`;
  await new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
  }).send(new CreateBucketCommand({ Bucket: bucket }));
  s3Server = await startServer({ env: { ...env, MEDIA_STORAGE: 's3', S3_BUCKET: bucket, S3_DELIVERY: 'redirect', JOB_POLL_MS: '100' } });
});

test.afterAll(async () => {
  await s3Server?.stop();
  rgw?.stop();
});

test('a film in the bucket plays on its watch page and in the admin, with no CSP violation', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: s3Server.url });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to load/i.test(m.text())) violations.push(m.text());
  });
  const dir = tempDir();
  try {
    expect((await page.request.post('/api/login', { data: { username: ADMIN.username, password: ADMIN.password } })).status()).toBe(200);
    const res = await page.request.post('/api/media', {
      headers: { Origin: s3Server.url },
      multipart: { title: 'Bucket Film', isFeatured: 'false', showInPortfolio: 'true', file: { name: 'bucket.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(makeVideo(dir, 'bucket.mp4', 4)) } },
    });
    expect(res.status()).toBe(201);
    const item = await res.json();
    await expect
      .poll(async () => ((await (await page.request.get('/api/media')).json()) as { id: number; processingStatus: string }[]).find((m) => m.id === item.id)?.processingStatus, { timeout: 60_000 })
      .toBe('ready');

    // Signed out: the public watch page.
    const visitor = await browser.newContext({ baseURL: s3Server.url });
    const watch = await visitor.newPage();
    watch.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to load/i.test(m.text())) violations.push(m.text());
    });
    const fromBucket: string[] = [];
    watch.on('requestfinished', (r) => {
      if (r.url().includes('X-Amz-Signature')) fromBucket.push(new URL(r.url()).pathname);
    });
    await watch.goto(`/portfolio/${item.slug}`);
    const video = watch.getByTestId('watch-video');
    await video.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      await v.play().catch(() => {});
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.3);
    // It really came from the bucket.
    expect(await video.evaluate((v: HTMLVideoElement) => v.currentSrc)).toMatch(/\/media\/[a-f0-9]{32}\/720p\.mp4/);
    // The bytes came from the bucket by the signed URL the app redirected to.
    expect(fromBucket.some((p) => /\/[a-f0-9]{32}\/720p\.mp4$/.test(p))).toBe(true);
    await visitor.close();

    // Signed in: the admin card's thumbnail and the review player.
    const signed: string[] = [];
    page.on('requestfinished', (r) => {
      if (r.url().includes('X-Amz-Signature')) signed.push(new URL(r.url()).pathname);
    });
    await page.goto('/admin/media');
    await islandsReady(page);
    // The card's poster loaded from the bucket through a signed URL.
    await expect.poll(() => signed.some((p) => /\/[a-f0-9]{32}\/poster\.jpg$/.test(p))).toBe(true);
    await page.getByRole('button', { name: 'Open Bucket Film' }).click();
    const player = page.getByTestId('detail-video');
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
