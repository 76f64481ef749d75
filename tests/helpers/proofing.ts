// Set-up for the stills proofing tests (issue 42): real JPEGs with EXIF, galleries made through
// the API, waiting for the job queue's gallery sizes, and a link visitor who opened the page.
import sharp from 'sharp';
import { expect } from 'vitest';
import { Session } from './http.ts';
import { upload } from './media-uploads.ts';
import { until } from './until.ts';

export interface Shot {
  name: string;
  /** EXIF DateTimeOriginal, "2026:03:01 10:11:12" (none: no EXIF at all). */
  taken?: string;
  width?: number;
  height?: number;
  colour?: string;
}

/** 64 x 64 pixels of noise from a seed: the same shot is the same bytes in every run. */
function noiseTile(seed: string): Buffer {
  let x = [...seed].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 2166136261);
  const tile = Buffer.alloc(64 * 64 * 3);
  for (let i = 0; i < tile.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    tile[i] = x >>> 24;
  }
  return tile;
}

/** A JPEG with the camera, lens and capture time a real one carries (same shot, same bytes). */
export async function shotJpeg(shot: Shot): Promise<Buffer> {
  const img = sharp({ create: { width: shot.width ?? 1600, height: shot.height ?? 1067, channels: 3, background: shot.colour ?? '#7c2d12' } })
    // Noise, so sizes differ by more than a header and resizes are real work.
    .composite([{ input: noiseTile(shot.name), raw: { width: 64, height: 64, channels: 3 }, tile: true, blend: 'overlay' }])
    .jpeg({ quality: 85 });
  return (
    shot.taken
      ? img.withExif({ IFD0: { Make: 'Canon', Model: 'Canon EOS R5' }, IFD2: { DateTimeOriginal: shot.taken, LensModel: 'RF50mm F1.2 L USM' } })
      : img
  ).toBuffer();
}

/** Uploads shots as library images; answers their ids in the order given. */
export async function uploadShots(admin: Session, shots: Shot[]): Promise<number[]> {
  const ids: number[] = [];
  for (const shot of shots) {
    const r = await upload(admin, { title: shot.name.replace(/\.[^.]+$/, '') }, { data: await shotJpeg(shot), name: shot.name, type: 'image/jpeg' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    ids.push(r.body.id);
  }
  return ids;
}

export async function createGallery(admin: Session, body: Record<string, unknown>) {
  const r = await admin.json('POST', '/api/galleries', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; images: { id: number; mediaId: number; filename: string }[] } & Record<string, any>;
}

/** The gallery once the job queue made every image's sizes (and read its EXIF). */
export async function whenSizesReady(admin: Session, galleryId: number, timeoutMs = 90_000) {
  return until(
    `gallery ${galleryId}'s sizes`,
    async () => {
      const r = await admin.json('GET', `/api/galleries/${galleryId}`);
      return r.status === 200 && r.body.images.length && r.body.images.every((i: { ready: boolean }) => i.ready) ? r.body : null;
    },
    timeoutMs,
  );
}

/** A gallery link's token, from the address its making answers. */
export async function galleryLink(admin: Session, galleryId: number, body: Record<string, unknown> = {}) {
  const r = await admin.json('POST', `/api/galleries/${galleryId}/links`, { name: 'For the couple', ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.id as number, token: new URL(r.body.url).pathname.split('/').pop()! };
}

/** A visitor who opened the link's page (which is what makes their pass). */
export async function enterLink(base: string, token: string, name?: string): Promise<Session> {
  const v = new Session(base);
  expect((await v.get(`/s/${token}`)).status).toBe(200);
  if (name) expect((await v.json('PUT', `/api/share/${token}/gallery/viewer`, { name })).status).toBe(200);
  return v;
}
