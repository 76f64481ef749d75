// The review players' test clip and moves, shared by the browser tests of issues 29 and 30
// (exact-frame-notes, editor-keys): a 6 s clip made by ffmpeg at 25 fps (one frame is 40 ms),
// uploaded and converted, and the video element paused and seeked as the native controls would.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { islandsReady } from './admin-helpers.ts';
import { ffmpegFixture } from '../helpers/fixture-cache.ts';
import type { ClientLogin } from '../helpers/portal-fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import { ADMIN } from '../helpers/server.ts';
import { staffSession } from '../helpers/http.ts';
import { frameSource, type FrameSourceSpec } from '../helpers/frame-fixture.ts';

export const FPS = 25;
export const FRAME = 1 / FPS;
export const SECONDS = 6;

/** The 25 fps clip of `size` (tests/helpers/fixture-cache.ts). */
function clip25(size: string): string {
  return ffmpegFixture(['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${FPS}:duration=${SECONDS}`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25'], 'mp4');
}

/**
 * Uploads the 25 fps clip (assigned to a client when given) and waits until it is converted.
 * `size` makes it another shape (a portrait clip letterboxed in a wide player).
 */
export async function uploadClip(page: Page, server: TestServer, title: string, clientId?: number, size = '320x180'): Promise<number> {
  const res = await page.request.post('/api/media', {
    headers: { Origin: server.url },
    multipart: { title, ...(clientId ? { clientId: String(clientId) } : {}), isFeatured: 'false', showInPortfolio: 'false', file: { name: 'frames-25.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(clip25(size)) } },
  });
  expect(res.status()).toBe(201);
  const id = (await res.json()).id as number;
  await expect
    .poll(async () => (await (await page.request.get(`/api/media/${id}/processing`)).json()).processingStatus, { timeout: 60_000 })
    .toBe('ready');
  return id;
}

export async function signInClient(page: Page, login: ClientLogin) {
  const res = await page.request.post('/api/client/login', { data: { username: login.username, password: login.password } });
  expect(res.status()).toBe(200);
  await page.goto('/client/dashboard');
  await islandsReady(page);
}

/** Waits until every version of the item is ready and none of its jobs is left. */
export async function conversionsDone(server: TestServer, id: number) {
  await expect
    .poll(
      async () => {
        const open = await server.sql.execute({ sql: "SELECT count(*) AS n FROM jobs WHERE media_id = ? AND status IN ('queued', 'running')", args: [id] });
        const v = await server.sql.execute({ sql: 'SELECT group_concat(processing_status) AS s FROM media_versions WHERE media_id = ?', args: [id] });
        return `${v.rows[0]!.s} ${open.rows[0]!.n}`;
      },
      { timeout: 120_000 },
    )
    .toMatch(/^(ready,?)+ 0$/);
}

const CONTAINER_TYPES: Record<FrameSourceSpec['container'], string> = { mov: 'video/quicktime', mp4: 'video/mp4', mkv: 'video/x-matroska', webm: 'video/webm', avi: 'video/x-msvideo' };

/**
 * Uploads footage numbered in its picture (tests/helpers/frame-fixture.ts) as staff, with the
 * form's `fields`, and waits until its whole ladder is made. Answers the item's id.
 */
export async function uploadNumbered(server: TestServer, source: FrameSourceSpec, title: string, fields: Record<string, string> = {}): Promise<number> {
  const staff = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const file = frameSource(source);
  const form = new FormData();
  for (const [k, v] of Object.entries({ title, isFeatured: 'false', showInPortfolio: 'false', ...fields })) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(fs.readFileSync(file))], { type: CONTAINER_TYPES[source.container] }), path.basename(file));
  const created = await staff.json('POST', '/api/media', form);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  await conversionsDone(server, id);
  return id;
}

/**
 * A second version of a converted item without converting again: a copy of its first version's
 * files under a new key, made current (the compare view and version switches need two).
 */
export async function copyAsNewVersion(server: TestServer, mediaId: number): Promise<void> {
  const first = (await server.sql.execute({ sql: 'SELECT * FROM media_versions WHERE media_id = ? ORDER BY number LIMIT 1', args: [mediaId] })).rows[0]!;
  const oldKey = String(first.storage_key);
  const newKey = randomBytes(16).toString('hex');
  fs.cpSync(path.join(server.mediaDir, oldKey), path.join(server.mediaDir, newKey), { recursive: true });
  const cols = ['url', 'poster_url', 'thumbnail_url', 'thumbnail_webp_url', 'webp_url', 'sprite_url'];
  await server.sql.execute({
    sql: `INSERT INTO media_versions (media_id, number, storage_key, filename, file_size, mime_type, width, height, duration_seconds, processing_status, processing_progress, renditions, original_playable, probe, ${cols.join(', ')})
          SELECT media_id, 2, ?, filename, file_size, mime_type, width, height, duration_seconds, processing_status, processing_progress, renditions, original_playable, probe, ${cols.map((c) => `replace(${c}, ?, ?)`).join(', ')}
          FROM media_versions WHERE id = ?`,
    args: [newKey, ...cols.flatMap(() => [oldKey, newKey]), first.id],
  });
  await server.sql.execute({ sql: 'UPDATE media SET storage_key = ?, url = replace(url, ?, ?) WHERE id = ?', args: [newKey, oldKey, newKey, mediaId] });
}

export const currentTime = (player: Locator) => player.evaluate((v: HTMLVideoElement) => v.currentTime);

/** Pauses and seeks the element directly (as the native controls would), waiting for the seek. */
export async function pauseAt(player: Locator, seconds: number) {
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
  await player.evaluate(
    (v: HTMLVideoElement, t) =>
      new Promise<void>((resolve) => {
        v.pause();
        v.addEventListener('seeked', () => resolve(), { once: true });
        v.currentTime = t;
      }),
    seconds,
  );
}
