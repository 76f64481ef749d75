// Upgrading to migration 0025 (issue 53): the Edit tab's old stage "final" is stored as
// "completed", the one list's name for it; and stills the upload tray put into a gallery before
// this release are recognised as the gallery's (media.gallery_id), so the library leaves them out,
// while images added to a gallery from the library, or used elsewhere, stay library items. The
// database is built with the real migrations up to 0024, filled, then the app is started on it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { staffSession } from '../helpers/http.ts';
import { migrationsBefore } from '../helpers/migrations.ts';

let server: TestServer;
let dir: string;
const ids: Record<'final' | 'review' | 'trayStill' | 'libraryAdded' | 'taggedStill' | 'sharedStill', number> = {} as never;
const T = Date.parse('2026-06-01T10:00:00Z');

async function image(c: Client, title: string, at: number, extra: { stage?: string; tags?: string[] } = {}): Promise<number> {
  const key = `${title.toLowerCase().replace(/\W/g, '')}`.padEnd(32, '0').slice(0, 32);
  const r = await c.execute({
    sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, project_stage, tags, created_at, uploaded_at)
          VALUES (?, 'image', ?, ?, ?, 100, 'image/jpeg', ?, ?, ?, ?) RETURNING id`,
    args: [title, key, `/media/${key}/original.jpg`, `${title}.jpg`, extra.stage ?? null, JSON.stringify(extra.tags ?? []), at, at],
  });
  return Number(r.rows[0]!.id);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-0025-upgrade-'));
  const c = createClient({ url: `file:${path.join(dir, 'studio.db')}` });
  await migrate(drizzle(c), { migrationsFolder: migrationsBefore('0025_gallery_stills') });
  ids.final = await image(c, 'Final cut still', T, { stage: 'final' });
  ids.review = await image(c, 'Review still', T, { stage: 'review' });
  const gallery = Number((await c.execute({ sql: `INSERT INTO galleries (title, created_at, updated_at) VALUES ('Wedding', ?, ?) RETURNING id`, args: [T, T] })).rows[0]!.id);
  const join = (mediaId: number, at: number) => c.execute({ sql: 'INSERT INTO gallery_images (gallery_id, media_id, created_at) VALUES (?, ?, ?)', args: [gallery, mediaId, at] });
  // As the upload tray left them: made, then in the gallery within the second.
  ids.trayStill = await image(c, 'IMG_0001', T);
  await join(ids.trayStill, T + 400);
  ids.sharedStill = await image(c, 'IMG_0002', T);
  await join(ids.sharedStill, T + 400);
  const link = Number((await c.execute(`INSERT INTO share_links (token_hash, name) VALUES ('${'t'.repeat(64)}', 'Old link') RETURNING id`)).rows[0]!.id);
  await c.execute({ sql: 'INSERT INTO share_link_items (link_id, media_id) VALUES (?, ?)', args: [link, ids.sharedStill] });
  // Library images: one added to the gallery a day later, one with the studio's tags.
  ids.libraryAdded = await image(c, 'Location scout', T);
  await join(ids.libraryAdded, T + 86_400_000);
  ids.taggedStill = await image(c, 'Tagged', T, { tags: ['stills'] });
  await join(ids.taggedStill, T + 400);
  c.close();
  server = await startServer({ dir, env: { WORKER: 'off' } });
});
afterAll(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('"final" reads as Completed, the one list\'s name; other stages are kept', async () => {
  const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const list = (await admin.json('GET', '/api/media')).body as { id: number; projectStage: string | null }[];
  expect(list.find((m) => m.id === ids.final)?.projectStage).toBe('completed');
  expect(list.find((m) => m.id === ids.review)?.projectStage).toBe('review');
});

test('a still the tray put into a gallery is the gallery\'s; library images in a gallery and stills used elsewhere stay in the library', async () => {
  const admin = await staffSession(server.url, ADMIN.username, ADMIN.password);
  const listed = ((await admin.json('GET', '/api/media')).body as { id: number }[]).map((m) => m.id);
  expect(listed).not.toContain(ids.trayStill);
  expect(listed).toEqual(expect.arrayContaining([ids.libraryAdded, ids.taggedStill, ids.sharedStill]));
  const rows = await server.sql.execute('SELECT id, gallery_id FROM media ORDER BY id');
  const owned = rows.rows.filter((r) => r.gallery_id != null).map((r) => Number(r.id));
  expect(owned).toEqual([ids.trayStill]);
});
