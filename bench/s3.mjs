// A 1 GB range download of a private original kept in S3 (a real single-node Ceph radosgw,
// scripts/radosgw), three ways in the same run, alternating: a presigned GET straight from the
// bucket (the ceiling), through the app in redirect mode (access check, 302, then the same
// presigned GET), and through the app in proxy mode (the app streams the object). Also the
// app's memory growth while proxying.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startServer, ADMIN, signIn, emit, main, num } from './lib.mjs';
import { startRadosgw } from '../tests/helpers/radosgw.ts';
import { download, makeBigFile, mbps, trackMemory } from './media-lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);

/** Follows the app's 302 by hand, as a browser does (no cookie to the bucket). */
async function viaRedirect(url, cookie, range) {
  const first = await download(url, cookie, range);
  if (first.status !== 302) throw new Error(`expected 302, got ${first.status}`);
  return download(first.headers.location, '', range);
}

main(async () => {
  const big = await makeBigFile();
  const rgw = startRadosgw({ RADOSGW_MEMSTORE_BYTES: String(3 * 1024 ** 3) });
  const client = new S3Client({
    endpoint: rgw.env.S3_ENDPOINT,
    region: rgw.env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: rgw.env.S3_ACCESS_KEY_ID, secretAccessKey: rgw.env.S3_SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const bucket = `bench-${randomBytes(4).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const key = randomBytes(16).toString('hex');
  await new Upload({ client, params: { Bucket: bucket, Key: `${key}/original.mp4`, Body: fs.createReadStream(big.file) }, partSize: 64 * 1024 * 1024, queueSize: 4 }).done();
  const s3env = { ...rgw.env, MEDIA_STORAGE: 's3', S3_BUCKET: bucket, DEMO_CONTENT: 'false', WORKER: 'off' };
  const redirectApp = await startServer({ env: { ...s3env, S3_DELIVERY: 'redirect' } });
  const proxyApp = await startServer({ env: { ...s3env, S3_DELIVERY: 'proxy' } });
  try {
    for (const app of [redirectApp, proxyApp]) {
      await app.sql.execute({
        sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type) VALUES ('Bench', 'video', ?, ?, 'big.mp4', ?, 'video/mp4')`,
        args: [key, `/media/${key}/original.mp4`, big.size],
      });
    }
    const path_ = `/media/${key}/original.mp4`;
    const cookies = { redirect: await signIn(redirectApp.url, 'staff', ADMIN.username, ADMIN.password), proxy: await signIn(proxyApp.url, 'staff', ADMIN.username, ADMIN.password) };
    const runs = { direct: [], redirect: [], proxy: [] };
    let memory = null;
    const range = 'bytes=0-';
    for (let round = 0; round < ROUNDS; round++) {
      const order = [['direct'], ['redirect'], ['proxy']];
      if (round % 2) order.reverse();
      for (const [way] of order) {
        let r;
        const t = performance.now();
        if (way === 'direct') {
          const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: `${key}/original.mp4` }), { expiresIn: 300 });
          r = await download(url, '', range);
        } else if (way === 'redirect') {
          r = await viaRedirect(redirectApp.url + path_, cookies.redirect, range);
        } else {
          const mem = trackMemory(proxyApp.proc.pid);
          r = await download(proxyApp.url + path_, cookies.proxy, range);
          const m = mem.stop();
          memory = !memory || m.growthMB > memory.growthMB ? m : memory;
        }
        runs[way].push(performance.now() - t);
        if (r.status !== 206 || r.bytes !== big.size) throw new Error(`${way}: ${r.status}, ${r.bytes} bytes`);
      }
    }
    const best = (xs) => Math.min(...xs);
    const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const rate = (xs) => ({ best: mbps(big.size, best(xs)), median: mbps(big.size, median(xs)) });
    const r = { direct: rate(runs.direct), redirect: rate(runs.redirect), proxy: rate(runs.proxy) };
    console.log(`1 GB private original in a Ceph radosgw bucket (memstore), range bytes=0-, ${ROUNDS} alternating rounds (best / median)`);
    console.log(`Presigned GET, straight from the bucket: ${num(r.direct.best)} / ${num(r.direct.median)} MB/s`);
    console.log(`Through the app, redirect mode:          ${num(r.redirect.best)} / ${num(r.redirect.median)} MB/s   ratio to direct ${num(r.redirect.best / r.direct.best, 2)} / ${num(r.redirect.median / r.direct.median, 2)}`);
    console.log(`Through the app, proxy mode:             ${num(r.proxy.best)} / ${num(r.proxy.median)} MB/s   ratio to direct ${num(r.proxy.best / r.direct.best, 2)} / ${num(r.proxy.median / r.direct.median, 2)}`);
    console.log(`App memory growth while proxying: ${num(memory.growthMB, 1)} MB`);
    emit('s3', { directMBs: r.direct, redirectMBs: r.redirect, proxyMBs: r.proxy, proxyMemoryGrowthMB: memory.growthMB });
  } finally {
    await redirectApp.stop();
    await proxyApp.stop();
    rgw.stop();
  }
});
