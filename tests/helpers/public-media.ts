// Test set-up for the public site: media rows inserted straight into the database, and a
// real short video on disk when a test plays it.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@libsql/client';

export interface MediaSeed {
  title: string;
  type?: 'image' | 'video';
  featured?: boolean;
  portfolio?: boolean;
  tags?: string[];
  /** Writes a real 2-second MP4 at MEDIA_DIR/<key>/original.mp4 (videos only). */
  withFile?: boolean;
}

let cachedVideo: Buffer | null = null;
function tinyVideo(): Buffer {
  if (!cachedVideo) {
    const out = path.join(fs.mkdtempSync('/tmp/studio-vid-'), 'out.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25', '-t', '2', '-pix_fmt', 'yuv420p', '-y', out]);
    cachedVideo = fs.readFileSync(out);
  }
  return cachedVideo;
}

export async function insertMedia(sql: Client, mediaDir: string, m: MediaSeed): Promise<{ id: number; storageKey: string; url: string }> {
  const type = m.type ?? 'video';
  const storageKey = randomBytes(16).toString('hex');
  const file = type === 'video' ? 'original.mp4' : 'original.jpg';
  const url = `/media/${storageKey}/${file}`;
  let size = 1000;
  if (m.withFile && type === 'video') {
    const video = tinyVideo();
    fs.mkdirSync(path.join(mediaDir, storageKey), { recursive: true });
    fs.writeFileSync(path.join(mediaDir, storageKey, file), video);
    size = video.length;
  }
  const res = await sql.execute({
    sql: `insert into media (title, type, storage_key, url, filename, file_size, mime_type, is_featured, show_in_portfolio, tags)
          values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    args: [m.title, type, storageKey, url, file, size, type === 'video' ? 'video/mp4' : 'image/jpeg', m.featured ? 1 : 0, m.portfolio ? 1 : 0, JSON.stringify(m.tags ?? [])],
  });
  return { id: Number(res.rows[0]!.id), storageKey, url };
}
