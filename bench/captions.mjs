// Issue 54 budgets, each against a baseline measured in the same run:
//   1. a two-hour film's 2,500 cues parsed and stored (the upload, timed to its answer) in < 200 ms;
//   2. the HLS subtitle rendition's playlist and segments served at ≥ 0.9× the speed of a static
//      file with the same bytes and type from the same folder (both through the media route and
//      its compression, one at a time);
//   3. open captions burnt in by the job queue at ≥ 0.9× the throughput of bare ffmpeg running
//      the same filter on the same proxy (the job's time from its request to its ready file).
// Search is not built yet, so its budget is not measured here.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, ADMIN, signIn, emit, main, ms, num } from './lib.mjs';
import { toAss } from '../src/server/captions/format.ts';
import { parseCaptions } from '../src/server/captions/parse.ts';

const SAMPLES = Number(process.env.BENCH_SAMPLES || 20);
const CUES = 2500;
const FILM_SECONDS = 7200;
const BURN_SECONDS = Number(process.env.BENCH_BURN_SECONDS || 20);
const STORE_BUDGET_MS = 200;
const RATIO_BUDGET = 0.9;

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const median = (xs) => pct([...xs].sort((a, b) => a - b), 50);

/** A two-hour film's subtitles: 2,500 cues of two lines, 2.2 s on screen, spread over the film. */
function filmSrt() {
  const t = (ms) => {
    const p = (n, w = 2) => String(n).padStart(w, '0');
    return `${p(Math.floor(ms / 3_600_000))}:${p(Math.floor(ms / 60_000) % 60)}:${p(Math.floor(ms / 1000) % 60)},${p(ms % 1000, 3)}`;
  };
  const every = Math.floor((FILM_SECONDS * 1000) / CUES);
  return Array.from({ length: CUES }, (_, i) => `${i + 1}\n${t(i * every)} --> ${t(i * every + 2200)}\nLine ${i + 1}: the harbour at dawn,\n<i>the gulls over the water</i>\n`).join('\n');
}

async function upload(base, cookie, mediaId, versionId, text, language) {
  const fd = new FormData();
  fd.set('language', language);
  fd.set('file', new Blob([text]), 'film.srt');
  const t = performance.now();
  const res = await fetch(`${base}/api/media/${mediaId}/versions/${versionId}/captions`, { method: 'POST', headers: { Cookie: cookie, Origin: base }, body: fd });
  const body = await res.json();
  const elapsed = performance.now() - t;
  if (res.status !== 201) throw new Error(`caption upload answered ${res.status}: ${JSON.stringify(body)}`);
  return { elapsed, body };
}

async function timedGet(base, cookie, p) {
  const t = performance.now();
  const res = await fetch(base + p, { headers: { Cookie: cookie } });
  const buf = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
  return { elapsed: performance.now() - t, bytes: buf.byteLength };
}

/** Median times of `subject` and `baseline` fetched in turn, after a warm-up of each; the ratio is the subject's speed against the baseline's. */
async function servedRatio(base, cookie, subject, baseline) {
  for (let i = 0; i < 3; i++) {
    await timedGet(base, cookie, subject);
    await timedGet(base, cookie, baseline);
  }
  const a = [];
  const b = [];
  for (let i = 0; i < SAMPLES * 5; i++) {
    a.push((await timedGet(base, cookie, subject)).elapsed);
    b.push((await timedGet(base, cookie, baseline)).elapsed);
  }
  return { subject: median(a), baseline: median(b), ratio: median(b) / median(a) };
}

main(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-bench-captions-'));
  const server = await startServer({ env: { JOB_POLL_MS: '100' } });
  try {
    const staff = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
    const rows = {};

    // 1. Parse and store.
    const key = 'cc'.padEnd(32, '0'); // a storage key is 32 hex digits
    const m = await server.sql.execute({
      sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, duration_seconds, width, height)
            VALUES ('Bench captions film', 'video', ?, ?, 'film.mp4', 1000, 'video/mp4', ?, 1920, 1080) RETURNING id`,
      args: [key, `/media/${key}/original.mp4`, FILM_SECONDS],
    });
    const mediaId = Number(m.rows[0].id);
    const versionId = Number((await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [mediaId] })).rows[0].id);
    await server.sql.execute({ sql: 'UPDATE media_versions SET probe = ?, duration_seconds = ? WHERE id = ?', args: [JSON.stringify({ fps: 25 }), FILM_SECONDS, versionId] });
    const srt = filmSrt();
    const languages = ['en', 'fr', 'de', 'es', 'it', 'nl', 'sv', 'da', 'nb', 'fi', 'pt', 'pl', 'cs', 'hu', 'ro', 'el', 'tr', 'ja', 'ko', 'zh', 'ar', 'he', 'hi', 'th', 'vi', 'id', 'ms', 'uk', 'ru', 'bg'];
    await upload(server.url, staff, mediaId, versionId, srt, 'cy'); // warm-up
    const times = [];
    let last;
    for (let i = 0; i < Math.min(SAMPLES, languages.length); i++) {
      last = await upload(server.url, staff, mediaId, versionId, srt, languages[i]);
      if (last.body.cueCount !== CUES) throw new Error(`stored ${last.body.cueCount} cues, not ${CUES}`);
      times.push(last.elapsed);
    }
    times.sort((a, b) => a - b);
    rows.store = { bytes: Buffer.byteLength(srt), cues: CUES, p50: pct(times, 50), p95: pct(times, 95), max: times[times.length - 1] };
    console.log(`store      ${num(rows.store.bytes)} bytes, ${CUES} cues: p50 ${ms(rows.store.p50)}  p95 ${ms(rows.store.p95)}  max ${ms(rows.store.max)}  ${rows.store.p95 < STORE_BUDGET_MS ? 'within' : 'OVER'} the ${STORE_BUDGET_MS} ms budget (p95)`);

    // 2. The HLS subtitle rendition against a static file of the same size, same folder.
    const rev = last.body.track.revisionId;
    const folder = path.join(server.mediaDir, key);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'original.mp4'), Buffer.alloc(1000, 0x41));
    const served = {};
    for (const [what, file, same] of [
      ['playlist', `cc-${rev}.m3u8`, '720p.m3u8'],
      ['segment', `cc-${rev}-3.vtt`, 'sprite.vtt'],
    ]) {
      const probe = await timedGet(server.url, staff, `/media/${key}/${file}`);
      // The same bytes as a static file of the same type (compressed alike: text/vtt is, by
      // scripts/serve.mjs, above 1 KB), served by the same route from the same folder.
      fs.writeFileSync(path.join(folder, same), Buffer.from(await (await fetch(`${server.url}/media/${key}/${file}`, { headers: { Cookie: staff } })).arrayBuffer()));
      const r = await servedRatio(server.url, staff, `/media/${key}/${file}`, `/media/${key}/${same}`);
      served[what] = { bytes: probe.bytes, ...r };
      console.log(`${what.padEnd(10)} ${num(probe.bytes)} bytes: median ${ms(r.subject)} against ${ms(r.baseline)} for the static file: ${r.ratio.toFixed(2)}× its speed (budget ≥ ${RATIO_BUDGET}×)`);
    }
    rows.served = served;

    // 3. Burn-in: the job against bare ffmpeg with the same filter on the same proxy.
    const clip = path.join(dir, 'burn.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=25:duration=${BURN_SECONDS}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${BURN_SECONDS}`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', clip]);
    const form = new FormData();
    for (const [k, v] of Object.entries({ title: 'Bench burn', isFeatured: 'false', showInPortfolio: 'false' })) form.set(k, v);
    form.set('file', new Blob([fs.readFileSync(clip)], { type: 'video/mp4' }), 'burn.mp4');
    const made = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { Cookie: staff, Origin: server.url }, body: form });
    if (made.status !== 201) throw new Error(`upload: ${made.status} ${await made.text()}`);
    const burnItem = (await made.json()).id;
    for (let i = 0; ; i++) {
      const open = await server.sql.execute({ sql: "SELECT count(*) AS n FROM jobs WHERE media_id = ? AND status IN ('queued', 'running')", args: [burnItem] });
      const v = await server.sql.execute({ sql: 'SELECT processing_status AS s FROM media_versions WHERE media_id = ?', args: [burnItem] });
      if (v.rows[0].s === 'ready' && Number(open.rows[0].n) === 0) break;
      if (v.rows[0].s === 'failed' || i > 3000) throw new Error(`processing: ${v.rows[0].s}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const bv = (await server.sql.execute({ sql: 'SELECT id, storage_key, renditions FROM media_versions WHERE media_id = ?', args: [burnItem] })).rows[0];
    const cueSrt = Array.from({ length: BURN_SECONDS / 2 }, (_, i) => `${i + 1}\n00:00:${String(i * 2).padStart(2, '0')},100 --> 00:00:${String(i * 2 + 1).padStart(2, '0')},900\nBurnt line ${i + 1}, with a second\nrow of words under it\n`).join('\n');
    const track = (await upload(server.url, staff, burnItem, Number(bv.id), cueSrt, 'en')).body.track;
    const renditions = JSON.parse(String(bv.renditions));
    const proxy = renditions.find((r) => Math.min(r.width, r.height) <= 1080) ?? renditions[0];
    const proxyFile = path.join(server.mediaDir, String(bv.storage_key), proxy.variant);
    const ass = path.join(dir, 'bare.ass');
    const cues = parseCaptions(cueSrt, BURN_SECONDS * 1000).cues;
    fs.writeFileSync(ass, toAss(cues, proxy.width, proxy.height, 'DejaVu Sans'));
    const bare = () => {
      const out = path.join(dir, 'bare-out.mp4');
      const t = performance.now();
      execFileSync('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', proxyFile, '-map', '0:v:0', '-map', '0:a:0?', '-vf', `subtitles=filename=${ass}:fontsdir=/usr/share/fonts/truetype/dejavu`, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'copy', '-map_metadata', '-1', '-sn', '-dn', '-movflags', '+faststart', '-f', 'mp4', out]);
      return performance.now() - t;
    };
    const job = async () => {
      const t = performance.now();
      const res = await fetch(`${server.url}/api/media/${burnItem}/captions/${track.id}/burn`, { method: 'POST', headers: { Cookie: staff, Origin: server.url } });
      const burn = await res.json();
      if (res.status !== 202) throw new Error(`burn answered ${res.status}: ${JSON.stringify(burn)}`);
      for (;;) {
        const r = await server.sql.execute({ sql: 'SELECT status, error FROM caption_burns WHERE id = ?', args: [burn.id] });
        if (r.rows[0].status === 'ready') return performance.now() - t;
        if (r.rows[0].status === 'failed') throw new Error(`burn failed: ${r.rows[0].error}`);
        await new Promise((r2) => setTimeout(r2, 50));
      }
    };
    const bareTimes = [];
    const jobTimes = [];
    for (let i = 0; i < 3; i++) {
      bareTimes.push(bare());
      jobTimes.push(await job());
    }
    rows.burn = { seconds: BURN_SECONDS, size: `${proxy.width}x${proxy.height}`, bare: median(bareTimes), job: median(jobTimes), ratio: median(bareTimes) / median(jobTimes) };
    console.log(`burn       ${BURN_SECONDS} s at ${rows.burn.size}: the job ${ms(rows.burn.job)} against bare ffmpeg ${ms(rows.burn.bare)} (medians of 3): ${rows.burn.ratio.toFixed(2)}× its throughput (budget ≥ ${RATIO_BUDGET}×)`);

    const within = rows.store.p95 < STORE_BUDGET_MS && Object.values(served).every((s) => s.ratio >= RATIO_BUDGET) && rows.burn.ratio >= RATIO_BUDGET;
    emit('captions', { samples: SAMPLES, ...rows, withinBudget: within });
    if (!within) throw new Error('A captions figure is outside its budget.');
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
