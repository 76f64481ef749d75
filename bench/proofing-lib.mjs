// Shared set-up of the stills proofing benchmarks (issue 42): galleries of many images seeded
// straight into a real server's database and media folder (multi-row INSERTs; every item's files
// hard links to a small pool made here with sharp), and a client who sees them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { ADMIN, signIn } from './lib.mjs';

/** 64 x 64 seeded noise, so the pool's pictures are not trivially small to encode. */
function noise(seed) {
  let x = seed * 2654435761 >>> 0;
  const b = Buffer.alloc(64 * 64 * 3);
  for (let i = 0; i < b.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

/** A picture of `width` x `height` as a JPEG (what cameras write), with seeded noise. */
export function pictureJpeg(width, height, seed, quality = 82) {
  return sharp({ create: { width, height, channels: 3, background: { r: (seed * 53) % 255, g: (seed * 97) % 255, b: (seed * 151) % 255 } } })
    .composite([{ input: noise(seed), raw: { width: 64, height: 64, channels: 3 }, tile: true, blend: 'overlay' }])
    .jpeg({ quality })
    .toBuffer();
}

/**
 * `count` distinct sets of an image's files (original, thumbnail and the gallery sizes the job
 * queue makes), landscape, portrait and square, written into `dir`.
 */
export async function picturePool(dir, count = 12) {
  const shapes = [[2400, 1600], [1600, 2400], [2000, 2000]];
  const pool = [];
  for (let i = 0; i < count; i++) {
    const [w, h] = shapes[i % shapes.length];
    const folder = path.join(dir, `pool-${i}`);
    fs.mkdirSync(folder, { recursive: true });
    const original = await pictureJpeg(w, h, i + 1);
    fs.writeFileSync(path.join(folder, 'original.jpg'), original);
    const fit = (edge) => sharp(original).resize({ width: edge, height: edge, fit: 'inside' });
    await fit(640).webp({ quality: 78 }).toFile(path.join(folder, 'thumb.webp'));
    for (const edge of [480, 960]) {
      await fit(edge).avif({ quality: 50, effort: 2 }).toFile(path.join(folder, `g${edge}.avif`));
      await fit(edge).webp({ quality: 78 }).toFile(path.join(folder, `g${edge}.webp`));
    }
    await fit(2048).webp({ quality: 78 }).toFile(path.join(folder, 'g2048.webp'));
    pool.push({ folder, width: w, height: h, size: original.length });
  }
  return pool;
}

/** Links (or copies) every file of `from` into the item folder `to`. */
function linkFolder(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const name of fs.readdirSync(from)) {
    try {
      fs.linkSync(path.join(from, name), path.join(to, name));
    } catch {
      fs.copyFileSync(path.join(from, name), path.join(to, name));
    }
  }
}

async function batchInsert(server, rows, sqlFor, size = 200) {
  for (let i = 0; i < rows.length; i += size) {
    const part = rows.slice(i, i + size);
    const { sql, args } = sqlFor(part);
    await server.sql.execute({ sql, args });
  }
}

/**
 * Seeds `count` library images (files linked from `pool`; `files(i)` may name another item's
 * folder to link from) and one gallery holding them all, shared with a new client. Returns the
 * gallery id and the client's cookie.
 */
export async function seedGallery(server, { count, pool, title = 'Bench gallery', tier = 'web2048', ready = true, files }) {
  const items = Array.from({ length: count }, (_, i) => {
    const p = files ? files(i) : pool[i % pool.length];
    return { key: randomBytes(16).toString('hex'), name: `IMG_${String(i + 1).padStart(4, '0')}.jpg`, p, taken: Date.parse('2026-06-01T10:00:00Z') + i * 1500 };
  });
  for (const it of items) linkFolder(it.p.folder, path.join(server.mediaDir, it.key));
  await batchInsert(server, items, (part) => ({
    sql: `INSERT INTO media (title, type, storage_key, url, thumbnail_url, thumbnail_webp_url, webp_url, filename, file_size, mime_type, width, height) VALUES ${part.map(() => "(?, 'image', ?, ?, ?, ?, NULL, ?, ?, 'image/jpeg', ?, ?)").join(', ')}`,
    args: part.flatMap((it) => [it.name.replace('.jpg', ''), it.key, `/media/${it.key}/original.jpg`, `/media/${it.key}/thumb.webp`, `/media/${it.key}/thumb.webp`, it.name, it.p.size, it.p.width, it.p.height]),
  }));
  const g = await server.sql.execute({ sql: `INSERT INTO galleries (title, download_tier) VALUES (?, ?) RETURNING id`, args: [title, tier] });
  const galleryId = Number(g.rows[0].id);
  const keys = items.map((it) => it.key);
  await batchInsert(server, items.map((it, i) => ({ ...it, i })), (part) => ({
    sql: `INSERT INTO gallery_images (gallery_id, media_id, position) SELECT ?, id, CASE storage_key ${part.map(() => 'WHEN ? THEN ?').join(' ')} END FROM media WHERE storage_key IN (${part.map(() => '?').join(', ')})`,
    args: [galleryId, ...part.flatMap((it) => [it.key, it.i]), ...part.map((it) => it.key)],
  }));
  if (ready) {
    await batchInsert(server, items, (part) => ({
      sql: `INSERT INTO stills (version_id, status, captured_at, camera, lens) SELECT v.id, 'ready', CASE v.storage_key ${part.map(() => 'WHEN ? THEN ?').join(' ')} END, 'Canon EOS R5', 'RF50mm F1.2 L USM' FROM media_versions v WHERE v.storage_key IN (${part.map(() => '?').join(', ')})`,
      args: [...part.flatMap((it) => [it.key, it.taken]), ...part.map((it) => it.key)],
    }));
  }
  const client = await clientWith(server, galleryId);
  return { galleryId, keys, ...client };
}

/** A client (made through the API) the gallery is shared with, signed in. */
export async function clientWith(server, galleryId) {
  const admin = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
  const username = `bench.${randomBytes(4).toString('hex')}`;
  const password = 'bench-client-pass-1';
  const res = await fetch(`${server.url}/api/clients`, {
    method: 'POST',
    headers: { Cookie: admin, Origin: server.url, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Bench Client', email: `${username}@clients.test`, username, password, company: '', phone: '', notes: '' }),
  });
  if (res.status !== 201) throw new Error(`client: ${res.status} ${await res.text()}`);
  const { id } = await res.json();
  const share = await fetch(`${server.url}/api/galleries/${galleryId}/clients`, {
    method: 'PUT',
    headers: { Cookie: admin, Origin: server.url, 'Content-Type': 'application/json' },
    body: JSON.stringify({ clientIds: [id] }),
  });
  if (share.status !== 200) throw new Error(`share: ${share.status} ${await share.text()}`);
  return { clientId: id, cookie: await signIn(server.url, 'client', username, password), admin };
}

export const tmp = (prefix) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
export const median = (xs) => pct(xs, 50);
