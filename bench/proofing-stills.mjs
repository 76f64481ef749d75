#!/usr/bin/env node
// Issue 42 budget: the job queue makes the gallery sizes of 500 24-megapixel JPEGs at no less
// than 0.9 of the throughput of sharp doing the same work by hand in the same run. The same
// work: one decode per image (shrink-on-load to 2,048 px, turned upright), then AVIF and WebP at
// 480 and 960 px and WebP at 2,048 px, encoded together, one image at a time. "By hand" is that
// pipeline written here with sharp alone, writing into a scratch folder; "the queue" is a real
// server: images added to a gallery queue one `stills` job each, and its worker (inside the
// server process, as with `npm start`) runs them, from the API call to the last row written.
// The 500 are split into halves run alternately (by hand, queue, by hand, queue) so a change in
// the machine's load falls on both sides. Inputs: 5 distinct 6,000 x 4,000 JPEGs made here,
// each item's original a hard link to one of them.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { emit, main, num, signIn, startServer, ADMIN } from './lib.mjs';
import { pictureJpeg, tmp } from './proofing-lib.mjs';

const IMAGES = Number(process.env.BENCH_MEDIA || 500);
const DISTINCT = 5;
sharp.cache(false); // as the server runs it (media/derivatives.ts)

/** The same work as renderStillSizes in src/server/proofing/stills.ts, with sharp alone. */
async function byHand(file, out) {
  const { data, info } = await sharp(file, { failOn: 'error', limitInputPixels: false }).autoOrient().resize({ width: 2048, height: 2048, fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  const px = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const fit = (edge) => px().resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true });
  await Promise.all([
    fit(480).avif({ quality: 50, effort: 2 }).toFile(path.join(out, 'g480.avif')),
    fit(480).webp({ quality: 78 }).toFile(path.join(out, 'g480.webp')),
    fit(960).avif({ quality: 50, effort: 2 }).toFile(path.join(out, 'g960.avif')),
    fit(960).webp({ quality: 78 }).toFile(path.join(out, 'g960.webp')),
    fit(2048).webp({ quality: 78 }).toFile(path.join(out, 'g2048.webp')),
  ]);
}

main(async () => {
  const dir = tmp('proofing-stills-');
  const sources = [];
  for (let i = 0; i < DISTINCT; i++) {
    const file = path.join(dir, `src-${i}.jpg`);
    fs.writeFileSync(file, await pictureJpeg(6000, 4000, 100 + i, 90));
    sources.push(file);
  }
  const server = await startServer({ env: { JOB_POLL_MS: '100' } });
  try {
    const admin = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
    // Library items, seeded: the originals as hard links.
    const items = [];
    for (let i = 0; i < IMAGES; i++) {
      const key = randomBytes(16).toString('hex');
      fs.mkdirSync(path.join(server.mediaDir, key), { recursive: true });
      const src = sources[i % DISTINCT];
      fs.linkSync(src, path.join(server.mediaDir, key, 'original.jpg'));
      items.push({ key, src, size: fs.statSync(src).size });
    }
    for (let i = 0; i < items.length; i += 200) {
      const part = items.slice(i, i + 200);
      await server.sql.execute({
        sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, width, height) VALUES ${part.map(() => "('Still', 'image', ?, ?, 'still.jpg', ?, 'image/jpeg', 6000, 4000)").join(', ')}`,
        args: part.flatMap((it) => [it.key, `/media/${it.key}/original.jpg`, it.size]),
      });
    }
    const ids = (await server.sql.execute('SELECT id FROM media ORDER BY id')).rows.map((r) => Number(r.id));
    const halves = [ids.slice(0, IMAGES / 2), ids.slice(IMAGES / 2)];
    const hand = { ms: 0, images: 0 };
    const queue = { ms: 0, images: 0 };
    for (const [h, half] of halves.entries()) {
      // By hand, over the same files (its half of them).
      const out = tmp('proofing-stills-hand-');
      let t = performance.now();
      for (const it of items.slice(h * (IMAGES / 2), (h + 1) * (IMAGES / 2))) await byHand(it.src, out);
      hand.ms += performance.now() - t;
      hand.images += half.length;
      fs.rmSync(out, { recursive: true, force: true });

      // The job queue: adding the images to a gallery queues their jobs; done when every row is written.
      t = performance.now();
      const res = await fetch(`${server.url}/api/galleries`, { method: 'POST', headers: { Cookie: admin, Origin: server.url, 'Content-Type': 'application/json' }, body: JSON.stringify({ title: `Half ${h + 1}`, mediaIds: half }) });
      if (res.status !== 201) throw new Error(`gallery: ${res.status} ${await res.text()}`);
      for (;;) {
        const [row] = (await server.sql.execute({ sql: `SELECT count(*) AS n, sum(s.status = 'failed') AS failed FROM stills s JOIN media_versions v ON v.id = s.version_id WHERE v.media_id BETWEEN ? AND ?`, args: [half[0], half.at(-1)] })).rows;
        if (Number(row.failed)) throw new Error(`${row.failed} stills jobs failed:\n${server.output().slice(-2000)}`);
        if (Number(row.n) === half.length) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      queue.ms += performance.now() - t;
      queue.images += half.length;
    }
    const rate = (s) => s.images / (s.ms / 1000);
    const ratio = rate(queue) / rate(hand);
    const ok = ratio >= 0.9;
    console.log(`${num(IMAGES)} JPEGs of 6,000 x 4,000 (24 MP, ${DISTINCT} distinct files); 5 outputs each (AVIF + WebP 480 and 960 px, WebP 2,048 px).`);
    console.log(`sharp by hand: ${num(hand.ms / 1000, 1)} s, ${num(rate(hand), 2)} images/s`);
    console.log(`job queue:     ${num(queue.ms / 1000, 1)} s, ${num(rate(queue), 2)} images/s (API call to the last row, worker inside the server)`);
    console.log(`Throughput ratio queue / by hand: ${num(ratio, 2)}  [budget ≥ 0.9: ${ok ? 'met' : 'MISSED'}]`);
    emit('proofing-stills', { images: IMAGES, handMs: hand.ms, queueMs: queue.ms, handRate: rate(hand), queueRate: rate(queue), ratio, ok });
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
