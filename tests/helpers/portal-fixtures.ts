// Clients, client logins and client media written straight into a test server's database,
// with real (tiny) files on disk so the delivery route can serve them.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hashPassword } from '../../src/server/auth/password.ts';
import { ffmpegFixture } from './fixture-cache.ts';
import { publishFixture, type TestServer } from './server.ts';

/** A 3-second 320x180 MP4 (tests/helpers/fixture-cache.ts: read it, never change it). */
export function sampleVideo(): string {
  return ffmpegFixture(['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25', '-t', '3', '-pix_fmt', 'yuv420p'], 'mp4');
}

/** A 320x180 JPEG (tests/helpers/fixture-cache.ts: read it, never change it). */
export function sampleImage(): string {
  return ffmpegFixture(['-f', 'lavfi', '-i', 'testsrc=size=320x180', '-frames:v', '1'], 'jpg');
}

export interface ClientLogin {
  clientId: number;
  clientUserId: number;
  /** The client's name (what others see of them), not the login. */
  name: string;
  username: string;
  password: string;
}

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}${randomBytes(2).toString('hex')}`;

/** A client with one active portal login. */
export async function createClientWithPortalLogin(server: TestServer, name = 'Client'): Promise<ClientLogin> {
  const u = unique();
  const username = `client.${u}`;
  const password = `pw-${u}-secret`;
  const clientName = `${name} ${u}`;
  const c = await server.sql.execute({
    sql: 'INSERT INTO clients (name, email) VALUES (?, ?) RETURNING id',
    args: [clientName, `${u}@client.test`],
  });
  const clientId = Number(c.rows[0]!.id);
  const cu = await server.sql.execute({
    sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?) RETURNING id',
    args: [clientId, username, `${u}@login.test`, await hashPassword(password)],
  });
  return { clientId, clientUserId: Number(cu.rows[0]!.id), name: clientName, username, password };
}

export interface MediaFixture {
  id: number;
  storageKey: string;
  url: string;
  title: string;
}

export interface MediaOptions {
  title?: string;
  /** Owner through media.client_id. */
  clientId?: number | null;
  /** Extra owners through media_clients links. */
  assign?: number[];
  durationSeconds?: number | null;
  tags?: string[];
  projectStage?: string | null;
  notes?: string | null;
  /** Milliseconds since the epoch. */
  createdAt?: number;
}

/** A video item with its original file on disk at <mediaDir>/<key>/original.mp4. */
export function createVideo(server: TestServer, opts: MediaOptions = {}): Promise<MediaFixture> {
  return createMedia(server, 'video', opts);
}

/** An image item with its original file on disk at <mediaDir>/<key>/original.jpg (no derivatives). */
export function createImage(server: TestServer, opts: MediaOptions = {}): Promise<MediaFixture> {
  return createMedia(server, 'image', { durationSeconds: null, ...opts });
}

async function createMedia(server: TestServer, type: 'video' | 'image', opts: MediaOptions): Promise<MediaFixture> {
  const storageKey = randomBytes(16).toString('hex');
  const folder = path.join(server.mediaDir, storageKey);
  fs.mkdirSync(folder, { recursive: true });
  const ext = type === 'video' ? 'mp4' : 'jpg';
  const file = path.join(folder, `original.${ext}`);
  fs.copyFileSync(type === 'video' ? sampleVideo() : sampleImage(), file);
  const url = `/media/${storageKey}/original.${ext}`;
  const title = opts.title ?? `${type === 'video' ? 'Video' : 'Image'} ${storageKey.slice(0, 6)}`;
  const created = opts.createdAt ?? Date.now();
  const r = await server.sql.execute({
    sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, tags, duration_seconds,
            project_stage, notes, client_id, created_at, uploaded_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    args: [
      title,
      type,
      storageKey,
      url,
      `${title.replace(/[^\w.-]+/g, '-')}.${ext}`,
      fs.statSync(file).size,
      type === 'video' ? 'video/mp4' : 'image/jpeg',
      JSON.stringify(opts.tags ?? []),
      opts.durationSeconds === undefined ? 3 : opts.durationSeconds,
      opts.projectStage ?? null,
      opts.notes ?? null,
      opts.clientId ?? null,
      created,
      created,
    ],
  });
  const id = Number(r.rows[0]!.id);
  await publishFixture(server.mediaDir, storageKey);
  for (const clientId of opts.assign ?? []) {
    await server.sql.execute({ sql: 'INSERT INTO media_clients (media_id, client_id) VALUES (?, ?)', args: [id, clientId] });
  }
  return { id, storageKey, url, title };
}
