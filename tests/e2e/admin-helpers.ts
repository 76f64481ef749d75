// Set-up helpers for the admin shell, dashboard and media browser tests: rows written straight
// into the test server's database (the real server reads them), and generated media files.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { TestServer } from '../helpers/server.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { ffmpegFixture } from '../helpers/fixture-cache.ts';
import { scratchDir } from '../helpers/scratch.ts';

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}`;

/** A staff user holding one new role with exactly `permissions` (plus `extraRoles`). */
export async function createStaffUser(
  server: TestServer,
  opts: { permissions: string[]; extraRoles?: string[]; displayName?: string; roleName?: string },
): Promise<{ username: string; password: string; email: string }> {
  const username = `staff${unique()}`;
  const password = 'staff-password-123';
  const email = `${username}@studio.test`;
  const id = crypto.randomUUID();
  await server.sql.execute({
    sql: 'INSERT INTO users (id, username, email, password_hash, display_name) VALUES (?, ?, ?, ?, ?)',
    args: [id, username, email, await hashPassword(password), opts.displayName ?? ''],
  });
  const role = opts.roleName ?? `Role ${username}`;
  const r = await server.sql.execute({ sql: 'INSERT INTO roles (name) VALUES (?) RETURNING id', args: [role] });
  const roleId = Number(r.rows[0]!.id);
  for (const p of opts.permissions) {
    await server.sql.execute({ sql: 'INSERT INTO role_permissions (role_id, permission_id) SELECT ?, id FROM permissions WHERE name = ?', args: [roleId, p] });
  }
  await server.sql.execute({ sql: 'INSERT INTO user_roles (user_id, role_id) VALUES (?, ?)', args: [id, roleId] });
  for (const extra of opts.extraRoles ?? []) {
    await server.sql.execute({ sql: 'INSERT INTO user_roles (user_id, role_id) SELECT ?, id FROM roles WHERE name = ?', args: [id, extra] });
  }
  return { username, password, email };
}

export async function createClient(server: TestServer, name: string, active = true): Promise<number> {
  const r = await server.sql.execute({
    sql: 'INSERT INTO clients (name, email, company, is_active) VALUES (?, ?, ?, ?) RETURNING id',
    args: [name, `${name.toLowerCase().replace(/\W+/g, '.')}.${unique()}@example.test`, `${name} Ltd`, active ? 1 : 0],
  });
  return Number(r.rows[0]!.id);
}

export interface MediaSeed {
  title: string;
  type?: 'image' | 'video';
  tags?: string[];
  stage?: string | null;
  notes?: string | null;
  featured?: boolean;
  portfolio?: boolean;
  createdAt?: number;
  clientIds?: number[];
}

/** Inserts a media row (no file: previews fall back, which the screen must survive). */
export async function insertMedia(server: TestServer, m: MediaSeed): Promise<number> {
  // Storage keys are 32 hex characters (src/server/storage/paths.ts).
  const key = randomBytes(16).toString('hex');
  const type = m.type ?? 'image';
  const ext = type === 'video' ? 'mp4' : 'jpg';
  const r = await server.sql.execute({
    sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, is_featured, show_in_portfolio, tags, project_stage, notes, created_at, uploaded_at)
          VALUES (?, ?, ?, ?, ?, 1000, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    args: [
      m.title,
      type,
      key,
      `/media/${key}/original.${ext}`,
      `file.${ext}`,
      type === 'video' ? 'video/mp4' : 'image/jpeg',
      m.featured ? 1 : 0,
      m.portfolio ? 1 : 0,
      JSON.stringify(m.tags ?? []),
      m.stage ?? null,
      m.notes ?? null,
      m.createdAt ?? Date.now(),
      m.createdAt ?? Date.now(),
    ],
  });
  const id = Number(r.rows[0]!.id);
  for (const c of m.clientIds ?? []) {
    await server.sql.execute({ sql: 'INSERT INTO media_clients (media_id, client_id) VALUES (?, ?)', args: [id, c] });
  }
  return id;
}

export async function count(server: TestServer, query: string): Promise<number> {
  const r = await server.sql.execute(query);
  return Number(r.rows[0]![0]);
}

/** A folder for a spec's files, removed when the worker ends (tests/helpers/scratch.ts). */
export function tempDir(): string {
  return scratchDir('studio-admin-e2e-');
}

/** A real JPEG made with sharp. */
export async function makeImage(dir: string, name = 'photo.jpg', size = 640): Promise<string> {
  const file = path.join(dir, name);
  await sharp({ create: { width: size, height: Math.round((size * 9) / 16), channels: 3, background: { r: 180, g: 120, b: 60 } } })
    .jpeg({ quality: 85 })
    .toFile(file);
  return file;
}

/** A short real MP4 made with ffmpeg (once per machine: tests/helpers/fixture-cache.ts), copied to `dir/name`. */
export function makeVideo(dir: string, name = 'clip.mp4', seconds = 3): string {
  const file = path.join(dir, name);
  fs.copyFileSync(ffmpegFixture(['-f', 'lavfi', '-i', `testsrc=size=320x180:rate=15:duration=${seconds}`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'], 'mp4'), file);
  return file;
}

/** A large valid-looking JPEG (header then filler) to have something slow to upload. */
export function makeLargeFile(dir: string, mb: number, name = 'large.jpg'): string {
  const file = path.join(dir, name);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
  const chunk = Buffer.alloc(1024 * 1024, 7);
  for (let i = 0; i < mb; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  return file;
}

/** Waits until every island that will hydrate on this page has (client:media ones may never). */
export async function islandsReady(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('astro-island[ssr]')].every((e) => e.getAttribute('client') === 'media' && !matchMedia(e.getAttribute('opts')?.match(/"value":"([^"]+)"/)?.[1] ?? 'all').matches),
  );
}

/** Signs in through the API (the login form has its own tests) and opens `path`. */
export async function signInAs(page: import('@playwright/test').Page, username: string, password: string, path = '/admin/dashboard'): Promise<void> {
  const res = await page.request.post('/api/login', { data: { username, password } });
  if (res.status() !== 200) throw new Error(`login failed: ${res.status()} ${await res.text()}`);
  await page.goto(path);
  await islandsReady(page);
}
