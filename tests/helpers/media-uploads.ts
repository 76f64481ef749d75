// Real sample files (sharp, ffmpeg) and a multipart upload helper for the media API tests.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Session } from './http.ts';
import { ffmpegFixture } from './fixture-cache.ts';

const cache = new Map<string, Buffer>();

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';

/** A width x height image in the given format (a gradient, so it is not trivially small). */
export async function sampleImage(format: ImageFormat, width = 1200, height = 800, colour = '#c2410c'): Promise<Buffer> {
  const key = `${format}-${width}-${height}-${colour}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="${colour}"/><stop offset="1" stop-color="#0f172a"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  const buf = await sharp(Buffer.from(svg))[format]().toBuffer();
  cache.set(key, buf);
  return buf;
}

export type VideoFormat = 'mp4' | 'mov' | 'avi' | 'mkv' | 'webm';

/** A 3-second 160x120 clip in the given container (tests/helpers/fixture-cache.ts). */
export function sampleVideo(format: VideoFormat): Buffer {
  const hit = cache.get(format);
  if (hit) return hit;
  const codec = format === 'webm' ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '100k'] : format === 'avi' ? ['-c:v', 'mpeg4'] : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  const buf = fs.readFileSync(ffmpegFixture(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '3', ...codec], format));
  cache.set(format, buf);
  return buf;
}

export interface UploadFile {
  data: Uint8Array;
  name: string;
  type?: string;
}

export function form(fields: Record<string, string>, file?: UploadFile, poster?: UploadFile): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name);
  if (poster) fd.append('posterFile', new Blob([new Uint8Array(poster.data)], { type: poster.type ?? 'application/octet-stream' }), poster.name);
  return fd;
}

export async function upload(s: Session, fields: Record<string, string>, file?: UploadFile, poster?: UploadFile) {
  const res = await s.request('POST', '/api/media', form(fields, file, poster));
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body };
}

/** Uploads a small JPEG and expects 201. */
export async function uploadImage(s: Session, fields: Record<string, string> = {}, colour?: string) {
  const r = await upload(s, { title: 'Sample image', ...fields }, { data: await sampleImage('jpeg', 800, 600, colour), name: 'sample.jpg', type: 'image/jpeg' });
  if (r.status !== 201) throw new Error(`upload failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Folders under MEDIA_DIR (one per item, plus any left-overs). */
export function mediaFolders(mediaDir: string): string[] {
  if (!fs.existsSync(mediaDir)) return [];
  // Types from the listing itself: a folder the server removes meanwhile must not make a
  // separate stat throw (the callers poll until the server has cleaned up).
  return fs
    .readdirSync(mediaDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}

export function folderFiles(mediaDir: string, storageKeyOrUrl: string): string[] {
  const key = storageKeyOrUrl.match(/[a-f0-9]{32}/)![0];
  const p = path.join(mediaDir, key);
  return fs.existsSync(p) ? fs.readdirSync(p).sort() : [];
}
