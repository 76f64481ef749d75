// Test set-up for the public site: media rows inserted straight into the database, and a
// real short video on disk when a test plays it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@libsql/client';
import { ffmpegFixture } from './fixture-cache.ts';
import { publishFixture } from './server.ts';

export interface MediaSeed {
  title: string;
  type?: 'image' | 'video';
  featured?: boolean;
  portfolio?: boolean;
  tags?: string[];
  /** Writes a real MP4 (2 s unless `seconds`) at MEDIA_DIR/<key>/original.mp4 (videos only). */
  withFile?: boolean;
  seconds?: number;
}

const videos = new Map<number, Buffer>();
function tinyVideo(seconds: number): Buffer {
  let v = videos.get(seconds);
  if (!v) {
    v = fs.readFileSync(ffmpegFixture(['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25', '-t', String(seconds), '-pix_fmt', 'yuv420p', '-movflags', '+faststart'], 'mp4'));
    videos.set(seconds, v);
  }
  return v;
}

/** Public pages are cached per site version: direct SQL changes must bump it like the app does. */
export async function bumpSiteVersion(sql: Client): Promise<void> {
  await sql.execute('update site_state set version = version + 1 where id = 1');
}

/** Runs a statement that changes what public pages show, then bumps the site version. */
export async function changeSite(sql: Client, stmt: string | { sql: string; args: (string | number | null)[] }): Promise<void> {
  await sql.execute(stmt);
  await bumpSiteVersion(sql);
}

export async function insertMedia(sql: Client, mediaDir: string, m: MediaSeed): Promise<{ id: number; storageKey: string; url: string }> {
  const type = m.type ?? 'video';
  const storageKey = randomBytes(16).toString('hex');
  const file = type === 'video' ? 'original.mp4' : 'original.jpg';
  const url = `/media/${storageKey}/${file}`;
  let size = 1000;
  if (m.withFile && type === 'video') {
    const video = tinyVideo(m.seconds ?? 2);
    fs.mkdirSync(path.join(mediaDir, storageKey), { recursive: true });
    fs.writeFileSync(path.join(mediaDir, storageKey, file), video);
    size = video.length;
    await publishFixture(mediaDir, storageKey);
  }
  const res = await sql.execute({
    sql: `insert into media (title, type, storage_key, url, filename, file_size, mime_type, is_featured, show_in_portfolio, tags)
          values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    args: [m.title, type, storageKey, url, file, size, type === 'video' ? 'video/mp4' : 'image/jpeg', m.featured ? 1 : 0, m.portfolio ? 1 : 0, JSON.stringify(m.tags ?? [])],
  });
  await bumpSiteVersion(sql);
  return { id: Number(res.rows[0]!.id), storageKey, url };
}
