// Resumable uploads (tus, /api/uploads): a generated 1 GB file sent the way the upload dialog
// sends it (16 MiB PATCH chunks, one after another) against a bare node:http server writing
// the body to disk (and the same server's one-request multipart upload), in the same run; the server's RSS growth over idle; and the bytes that
// must be sent again after the connection is cut at 50 %.
// Goals: tus/bare ratio ≥ 0.8; RSS growth ≤ 64 MB; bytes resent after a cut ≤ one chunk.
import fs from 'node:fs';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { startServer, ADMIN, signIn, emit, main, num } from './lib.mjs';
import { MB, makeBigFile, mbps, startBareUploadServer, streamUpload, trackMemory } from './media-lib.mjs';

// Disk write-back makes single 1 GB runs swing by ±40 % here: four alternating rounds.
const ROUNDS = Number(process.env.BENCH_ROUNDS || 4);
const CHUNK = 16 * MB;
const TUS = { 'Tus-Resumable': '1.0.0' };

/** Sends bytes [start, end) of `file` as one PATCH; `cutAt` (absolute) destroys the socket there. */
function patch(base, cookie, id, file, start, end, cutAt = null) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/uploads/${id}`, {
      method: 'PATCH',
      headers: { ...TUS, Cookie: cookie, Origin: base, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(start), 'Content-Length': String(end - start) },
    });
    let sent = 0;
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, offset: Number(res.headers['upload-offset']), sent }));
    });
    req.on('error', (e) => (cutAt !== null ? resolve({ status: 0, offset: NaN, sent }) : reject(e)));
    const last = cutAt !== null ? cutAt : end;
    const src = fs.createReadStream(file, { start, end: last - 1, highWaterMark: MB });
    src.on('data', (c) => (sent += c.length));
    src.on('error', reject);
    if (cutAt !== null) {
      src.pipe(req, { end: false });
      // Wait until the kernel has taken every byte, then cut as a dropped connection would.
      src.on('end', () => setTimeout(() => req.destroy(), 200));
    } else src.pipe(req);
  });
}

async function create(base, cookie, size) {
  const res = await fetch(`${base}/api/uploads`, {
    method: 'POST',
    headers: { ...TUS, Cookie: cookie, Origin: base, 'Upload-Length': String(size), 'Upload-Metadata': `filename ${Buffer.from('big.mp4').toString('base64')}` },
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return res.headers.get('location').split('/').pop();
}

async function head(base, cookie, id) {
  const res = await fetch(`${base}/api/uploads/${id}`, { method: 'HEAD', headers: { ...TUS, Cookie: cookie } });
  return Number(res.headers.get('upload-offset'));
}

async function tusUpload(base, cookie, file, size) {
  const id = await create(base, cookie, size);
  for (let offset = 0; offset < size; ) {
    const r = await patch(base, cookie, id, file, offset, Math.min(size, offset + CHUNK));
    if (r.status !== 204) throw new Error(`PATCH failed: ${r.status}`);
    offset = r.offset;
  }
  return id;
}

main(async () => {
  const big = await makeBigFile();
  const server = await startServer({ env: { DEMO_CONTENT: 'false', WORKER: 'off' } });
  try {
    const cookie = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
    const finishAndDelete = async (id, title) => {
      const res = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json' }, body: JSON.stringify({ uploadId: id, title }) });
      const item = await res.json();
      if (res.status !== 201 || item.fileSize !== big.size) throw new Error(`finishing failed: ${res.status} ${JSON.stringify(item)}`);
      await fetch(`${server.url}/api/media/${item.id}`, { method: 'DELETE', headers: { Cookie: cookie, Origin: server.url } });
    };
    // Warm-up: one small tus upload so first-use costs are not counted.
    const small = 4 * MB;
    const warm = await create(server.url, cookie, small);
    await patch(server.url, cookie, warm, big.file, 0, small);
    await fetch(`${server.url}/api/uploads/${warm}`, { method: 'DELETE', headers: { ...TUS, Cookie: cookie, Origin: server.url } });

    const bareServer = await startBareUploadServer(big.dir);
    const settle = async () => {
      execFileSync('sync');
      await new Promise((r) => setTimeout(r, 1000));
    };
    const bares = [];
    const tuses = [];
    const multiparts = [];
    let memory = null;
    const bareOnce = async () => {
      await settle();
      const t = performance.now();
      const b = await streamUpload(bareServer.url, '', big.file, { title: 'bare' }, '/');
      bares.push(performance.now() - t);
      if (b.status !== 201) throw new Error(`bare upload failed: ${b.status}`);
      // The one-request multipart path of the same server, for reference.
      await settle();
      const m0 = performance.now();
      const m = await streamUpload(server.url, cookie, big.file, { title: 'Bench multipart' });
      multiparts.push(performance.now() - m0);
      if (m.status !== 201) throw new Error(`multipart upload failed: ${m.status} ${m.body}`);
      await fetch(`${server.url}/api/media/${JSON.parse(m.body).id}`, { method: 'DELETE', headers: { Cookie: cookie, Origin: server.url } });
    };
    const tusOnce = async (round) => {
      await settle();
      const mem = trackMemory(server.proc.pid);
      const t = performance.now();
      const id = await tusUpload(server.url, cookie, big.file, big.size);
      tuses.push(performance.now() - t);
      const m = mem.stop();
      memory = !memory || m.growthMB > memory.growthMB ? m : memory;
      await finishAndDelete(id, `Bench tus ${round}`);
    };
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        await bareOnce();
        await tusOnce(round);
      } else {
        await tusOnce(round);
        await bareOnce();
      }
    }
    await bareServer.stop();

    // A cut at 50 %: the client has handed the first half to the network when the connection
    // drops; whatever the server did not keep must be sent again.
    const id = await create(server.url, cookie, big.size);
    const half = Math.floor(big.size / 2);
    // The cut falls in the middle of a chunk, the worst case for a chunked client.
    const cutChunkStart = half - CHUNK / 2;
    let offset = 0;
    while (offset < cutChunkStart) offset = (await patch(server.url, cookie, id, big.file, offset, Math.min(offset + CHUNK, cutChunkStart))).offset;
    const cut = await patch(server.url, cookie, id, big.file, offset, Math.min(big.size, offset + CHUNK), half);
    const kept = await head(server.url, cookie, id);
    const handed = offset + cut.sent;
    const resent = handed - kept;
    for (let o = kept; o < big.size; ) o = (await patch(server.url, cookie, id, big.file, o, Math.min(big.size, o + CHUNK))).offset;
    await finishAndDelete(id, 'Bench tus cut');

    const best = (xs) => Math.min(...xs);
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const bareMBs = mbps(big.size, best(bares));
    const tusMBs = mbps(big.size, best(tuses));
    const multipartMBs = mbps(big.size, best(multiparts));
    const bareMedianMBs = mbps(big.size, median(bares));
    const tusMedianMBs = mbps(big.size, median(tuses));
    const runs = (xs) => xs.map((x) => num(x / 1000, 1) + ' s').join(', ');
    const line = (label, xs) => `${label}${num(mbps(big.size, best(xs))).padStart(5)} / ${num(mbps(big.size, median(xs))).padStart(4)} MB/s  (runs: ${runs(xs)})`;
    console.log(`File: ${num(big.size / 1024 ** 3, 2)} GB, ${ROUNDS} alternating rounds (best / median of each), tus chunks of 16 MiB`);
    console.log(line('Bare node:http upload to disk: ', bares));
    console.log(line('Multipart POST /api/media:     ', multiparts));
    console.log(line('tus via /api/uploads:          ', tuses));
    console.log(`Ratio tus/bare (best / median): ${num(tusMBs / bareMBs, 2)} / ${num(tusMedianMBs / bareMedianMBs, 2)} (goal ≥ 0.8); tus/multipart ${num(tusMBs / multipartMBs, 2)}`);
    console.log(`Server RSS: idle ${num(memory.idleMB)} MB, peak ${num(memory.peakMB)} MB, growth ${num(memory.growthMB, 1)} MB (goal ≤ 64 MB)${memory.hwmReset ? '' : ' [sampled]'}`);
    console.log(`Cut at 50 %: handed ${num(handed / MB, 1)} MB to the network, server kept ${num(kept / MB, 1)} MB, resent ${num(resent / MB, 2)} MB (goal ≤ 16 MB)`);
    emit('tus-upload', {
      bytes: big.size,
      bareHttpMBs: bareMBs,
      tusMBs,
      ratioToBareHttp: tusMBs / bareMBs,
      medianRatioToBareHttp: tusMedianMBs / bareMedianMBs,
      multipartMBs,
      ratioToMultipart: tusMBs / multipartMBs,
      idleRssMB: memory.idleMB,
      peakRssMB: memory.peakMB,
      rssGrowthMB: memory.growthMB,
      resentBytesAfterCut: resent,
      goalMet: tusMBs / bareMBs >= 0.8 && memory.growthMB <= 64 && resent <= CHUNK,
    });
  } finally {
    await server.stop();
    big.cleanup();
  }
});
