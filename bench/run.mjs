#!/usr/bin/env node
// `npm run bench`: runs every benchmark in sequence (each in its own process, each starting
// its own server on a temporary database), prints a report and writes each benchmark's figures
// into its own block of BENCHMARKS.md (bench/blocks.mjs: one block per benchmark, each with a
// checksum line; nothing is written if any block was edited by hand). Needs a build (`npm run
// build`; STUDIO_OUT_DIR picks another output folder). Optional benchmarks other areas own
// (lighthouse, upload, download) run when their file exists; a line `BENCH_RESULT {json}` on
// their output is collected, anything else is shown as printed.
//   node bench/run.mjs [name ...]   run only these (ssr, admin-lists, portal-writes, lighthouse, markers-export, …)
//                                   and rewrite only their blocks (the others are kept as they are)
//   node bench/run.mjs --check      check the blocks' checksums, run nothing
//   BENCH_NO_WRITE=1                 print the report only
//   BENCH_DURATION=3 BENCH_ROUNDS=1  shorter autocannon runs for a smoke test (not written:
//                                   shortened runs are not the figures the document reports)
//   BENCH_UPLOAD_MBIT=100            proofing-tray on an emulated connection of that upload speed
//                                   (printed, not written: the recorded run is the loopback's)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { END, START, problemsIn, writeBlocks } from './blocks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const outDir = path.resolve(root, process.env.STUDIO_OUT_DIR || 'dist');
const BENCHES = ['ssr', 'admin-lists', 'portal-writes', 'lighthouse', 'upload', 'download', 'tus-upload', 'video', 'hls', 'nginx', 'public-scale', 's3', 'sqld', 'markers-export', 'review-markers', 'drawing', 'compare', 'js-growth', 'live', 'proofing-gallery', 'proofing-zip', 'proofing-stills', 'proofing-tray', 'memory', 'captions', 'audit', 'search', 'sign-in', 'rounds'];
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith('--'));
const MINE = new Set(['ssr', 'admin-lists', 'portal-writes', 'memory']);
const file = path.join(root, 'BENCHMARKS.md');

for (const name of only) {
  if (!BENCHES.includes(name)) {
    console.error(`Unknown benchmark "${name}"; known: ${BENCHES.join(', ')}.`);
    process.exit(1);
  }
}

// Refuse before spending minutes on runs whose figures could not be written.
const problems = fs.existsSync(file) ? problemsIn(fs.readFileSync(file, 'utf8')) : [];
if (args.includes('--check')) {
  if (problems.length) {
    console.error(`BENCHMARKS.md: ${problems.join('; ')}.`);
    process.exit(1);
  }
  console.log('BENCHMARKS.md: every generated block matches its checksum.');
  process.exit(0);
}
const shortened = ['BENCH_DURATION', 'BENCH_ROUNDS', 'BENCH_CONNECTIONS', 'LH_PAGES', 'BENCH_SAMPLES', 'BENCH_MEDIA', 'BENCH_CLIENTS', 'BENCH_UPLOAD_BYTES', 'BENCH_COLD_SAMPLES', 'BENCH_BROWSER_ROUNDS', 'BENCH_IDLE_SECONDS', 'BENCH_REQUESTS', 'BENCH_STARTS', 'BENCH_4K_SECONDS', 'BENCH_UPLOAD_MBIT'].filter((k) => process.env[k]);
const write = process.env.BENCH_NO_WRITE !== '1' && !shortened.length;
if (write && problems.length) {
  console.error(`Not running: BENCHMARKS.md could not be written afterwards: ${problems.join('; ')}.`);
  console.error('Empty or delete the block named (keep prose outside the bench markers), or set BENCH_NO_WRITE=1 to run without writing.');
  process.exit(1);
}

if (!fs.existsSync(path.join(outDir, 'server', 'entry.mjs'))) {
  console.error(`No build in ${path.relative(root, outDir) || '.'}: run "npm run build" first.`);
  process.exit(1);
}

function runBench(name) {
  const file = path.join(here, `${name}.mjs`);
  return new Promise((resolve) => {
    const started = Date.now();
    const proc = spawn(process.execPath, [file], { cwd: root, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const results = [];
    const lines = [];
    let buffer = '';
    proc.stdout.on('data', (chunk) => {
      buffer += chunk;
      let i;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        if (line.startsWith('BENCH_RESULT ')) results.push(JSON.parse(line.slice('BENCH_RESULT '.length)));
        else {
          lines.push(line);
          console.log(`  ${line}`);
        }
      }
    });
    proc.stderr.on('data', (chunk) => process.stderr.write(chunk));
    proc.on('exit', (code) =>
      resolve({
        name,
        code,
        results,
        lines,
        seconds: (Date.now() - started) / 1000,
        finishedAt: new Date().toISOString().replace('T', ' ').slice(0, 16),
        load: os.loadavg().map((l) => l.toFixed(1)).join(' / '),
      }),
    );
  });
}

const f0 = (v) => (v === undefined || v === null ? '–' : Math.round(v).toLocaleString('en-GB'));
const f1 = (v) => (v === undefined || v === null ? '–' : Number(v).toFixed(1));

function markdownFor(run) {
  const out = [];
  for (const r of run.results) {
    if (r.name === 'ssr') {
      out.push(`### Public pages: cached SSR against a bare node:http server`);
      out.push('');
      out.push(`autocannon, ${r.connections} connections, ${r.duration} s per run, ${r.rounds} alternating runs per side; the bare server answers the same bytes and headers from memory in its own process. Rows marked (br) send \`Accept-Encoding: gzip, deflate, br\` as browsers do (compressed bytes on both sides).`);
      out.push('');
      out.push('| page | bytes | app req/s | app p99 | bare req/s | bare p99 | ratio (goal ≥ 0.5) |');
      out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
      for (const row of r.rows) {
        out.push(`| \`${row.page}\` | ${f0(row.bytes)} | ${f0(row.app.rps)} | ${f0(row.app.p99)} ms | ${f0(row.bare.rps)} | ${f0(row.bare.p99)} ms | **${row.ratio.toFixed(2)}** |`);
      }
      const errs = r.rows.reduce((s, row) => s + row.app.non2xx + row.app.errors, 0);
      out.push('');
      out.push(`App errors or non-2xx answers during the runs: ${errs}. Per-run app req/s: ${r.rows.map((row) => `${row.page} ${row.app.runs.join(' / ')}`).join('; ')}.`);
    } else if (r.name === 'admin-lists') {
      out.push(`### Admin media lists with ${f0(r.media)} items and ${f0(r.clients)} clients`);
      out.push('');
      out.push(
        `Seeded with multi-row INSERTs in ${f0(r.seedMs)} ms; signed in as admin; ${r.samples} requests per row. Every row is paired with a bare \`node:http\` server (own process) answering the same bytes and headers in the same run. *Wire*: node:http client sending a browser's \`Accept-Encoding\`, 2 concurrent, timed to the last byte. *Chromium*: \`fetch()\` + \`arrayBuffer()\` in a page (bytes in and inflated), one request at a time as the admin screen makes it. *Node fetch*: undici, 2 concurrent, inflating in JavaScript streams (the method of earlier runs).`,
      );
      out.push('');
      out.push('| URL | JSON/HTML bytes | bytes sent | client | app p50 | app p95 | app p99 | bare p50 | bare p95 |');
      out.push('| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |');
      for (const row of r.rows) {
        const clients = [
          ['wire', row.wire],
          ['Chromium', row.browser],
          ['Node fetch', row.undici && { app: row.undici }],
        ].filter(([, v]) => v);
        for (const [client, v] of clients) {
          out.push(
            `| \`GET ${row.path}\` | ${f0(row.bytes)} | ${f0(row.sentBytes)} (${row.encoding}) | ${client} | ${f1(v.app.p50)} ms | **${f1(v.app.p95)} ms** | ${f1(v.app.p99)} ms | ${v.bare ? f1(v.bare.p50) + ' ms' : '–'} | ${v.bare ? f1(v.bare.p95) + ' ms' : '–'} |`,
          );
        }
      }
      out.push('');
      const browserRow = r.rows.find((row) => row.browser);
      if (browserRow) out.push(`Chromium row: both sides warmed with 5 requests, then ${browserRow.browser.rounds} alternating rounds (order flipped each round), samples pooled.`, '');
      out.push(`Goal for cache hits (\`GET /api/media\` p95 < ${r.goalP95Ms} ms, judged on the wire and Chromium rows): **${r.goalMet ? 'met' : 'missed'}**.`);
      out.push('');
      if (r.cold) {
        out.push(
          `**After an edit** (cache miss: the list is rebuilt from the database and gzipped): ${r.cold.count} times an edit through \`PUT /api/media/:id\`, then the first \`GET /api/media\` on the wire, then a second one (a cache hit of the same list) for comparison.`,
        );
        out.push('');
        out.push('| request | p50 | p95 | worst |');
        out.push('| --- | ---: | ---: | ---: |');
        out.push(`| first GET after an edit (cold) | ${f1(r.cold.cold.p50)} ms | **${f1(r.cold.cold.p95)} ms** | ${f1(r.cold.cold.max)} ms |`);
        out.push(`| the GET right after it (warm) | ${f1(r.cold.warm.p50)} ms | ${f1(r.cold.warm.p95)} ms | ${f1(r.cold.warm.max)} ms |`);
        out.push('');
        out.push(`Goal for the cold path (first GET after an edit p95 < ${r.coldGoalP95Ms} ms on the wire): **${r.coldGoalMet ? 'met' : 'missed'}**.`);
        out.push('');
      }
      if (r.screen) {
        out.push(
          `The admin media screen in Chromium (${r.screen.loads} fresh loads of \`/admin/media\`, from navigation start): first card p50 ${f0(r.screen.firstCard.p50)} ms (worst ${f0(r.screen.firstCard.max)} ms); the count line reporting all ${f0(r.media)} items p50 ${f0(r.screen.allCounted.p50)} ms (worst ${f0(r.screen.allCounted.max)} ms).`,
        );
        if (r.screen.filters) {
          const f = r.screen.filters;
          out.push('');
          out.push(
            `Search box, from setting the text to the count line showing the result: "${f.narrow.text}" (${f0(f.narrow.matches)} match) ${f0(f.narrow.ms)} ms; "${f.broad.text}" (${f0(f.broad.matches)} matches) ${f0(f.broad.ms)} ms; cleared (all ${f0(f.reset.matches)}) ${f0(f.reset.ms)} ms. Typing "notes for", input event to the next frame: p50 ${f0(r.screen.keystroke.p50)} ms, worst ${f0(r.screen.keystroke.max)} ms (${r.screen.keystroke.count} keys).`,
          );
        }
      }
    } else if (r.name === 'portal-writes') {
      out.push(`### ${r.clients} portal clients posting feedback and timeline notes at once`);
      out.push('');
      out.push(`Each client signed in with its own session and posted ${r.perClient} times (alternating feedback and timeline notes) on its own video.`);
      out.push('');
      out.push('| writes | time | req/s | p50 | p95 | p99 | errors | stored = acknowledged |');
      out.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
      out.push(
        `| ${f0(r.sent)} | ${f1(r.elapsedMs / 1000)} s | **${f1(r.rps)}** | ${f0(r.p50)} ms | ${f0(r.p95)} ms | ${f0(r.p99)} ms | ${r.errors} | ${r.countsMatch ? 'yes' : '**NO**'} (feedback ${r.stored.feedback}/${r.acknowledged.feedback}, notes ${r.stored.notes}/${r.acknowledged.notes}) |`,
      );
    } else if (r.name === 'memory') {
      const budget = { web: 150, webFirstStart: 150, allInOne: 200, worker: 120 };
      const label = {
        bare: 'bare Astro + React (reference)',
        web: 'web process (`WORKER=off`)',
        webFirstStart: 'web process, first start seeding the demo, public pages only',
        allInOne: '`npm start` (web + worker)',
        worker: 'worker alone (`npm run worker`)',
      };
      out.push(`### Memory: each process kind against a bare Astro + React server (issue 43)`);
      out.push('');
      out.push(
        `RSS (VmRSS; in brackets the anonymous part, the rest being file pages such as the Node binary's) settled right after start, after ${f0(r.requests)} requests (the app: public pages, watch pages, the admin API and pages, the portal, 4 at a time; the bare server: its one page) and after ${r.idleSeconds} s idle. The first-start row is a web process started on an empty folder with \`DEMO_CONTENT=true\`, which seeds the demo (the proofing gallery included) before it serves, then ${f0(r.requests)} requests to \`/\`, \`/portfolio\`, \`/services\` and \`/about\` only. The bare server is \`bench/bare-astro\`, built and measured in the same run on Node ${r.node}.`,
      );
      out.push('');
      out.push('| process | after start | after requests | after idle | budget |');
      out.push('| --- | ---: | ---: | ---: | ---: |');
      const mb = (m) => `${f0(m.rss)} MB (${f0(m.anon)})`;
      for (const kind of ['bare', 'web', 'webFirstStart', 'allInOne', 'worker']) {
        const m = r.kinds[kind];
        if (!m) continue;
        const b = budget[kind];
        out.push(`| ${label[kind]} | ${mb(m.start)} | ${m.statuses ? mb(m.loaded) : '–'} | **${mb(m.idle)}** | ${b ? `≤ ${b} MB: ${m.idle.rss <= b ? 'met' : 'missed'}` : '–'} |`);
      }
      out.push('');
      const s = r.startup;
      out.push(
        `Start-up to the first 200 of \`/\` (\`scripts/start.mjs --no-build\` on the existing database and build, spawn to answer, ${s.app.length} runs): median **${f0(s.appMedian)} ms** (${s.app.map(f0).join(', ')}; budget ≤ 2,000 ms: ${s.appMedian <= 2000 ? 'met' : 'missed'}); the bare server ${f0(s.bareMedian)} ms (${s.bare.map(f0).join(', ')}).`,
      );
      if (r.transcode) {
        const t = r.transcode;
        out.push('');
        out.push(
          `A ${t.seconds} s 3840x2160 ProRes 422 source (${f0(t.bytes / 2 ** 20)} MB) ${t.failure ? `given to a worker process (the conversion failed: ${t.failure})` : `converted into ${t.ladder.join(', ')} by a worker process`} (ffmpeg threads: ${t.threads}) while a web process serves, in ${f1(t.ms / 1000)} s on ${r.cores} cores: peak RSS web ${f0(t.peak.web)} MB, worker ${f0(t.peak.worker)} MB, ffmpeg ${f0(t.peak.ffmpeg)} MB; **${f0(t.peak.total)} MB** together (sampled every 50 ms).`,
        );
      }
    } else {
      continue; // another area's benchmark: its own printed summary is shown below
    }
    out.push('');
  }
  if (!run.results.length || run.results.some((r) => !MINE.has(r.name))) {
    out.push(`### ${run.name} (as printed by bench/${run.name}.mjs)`);
    out.push('');
    out.push('```');
    out.push(...run.lines.slice(-40));
    out.push('```');
    out.push('');
  }
  if (run.code !== 0) out.push(`(\`${run.name}\` exited with code ${run.code}.)`, '');
  return out.join('\n');
}

const names = BENCHES.filter((n) => (only.length ? only.includes(n) : true)).filter((n) => fs.existsSync(path.join(here, `${n}.mjs`)));
const runs = [];
for (const name of names) {
  console.log(`\n== ${name}`);
  runs.push(await runBench(name));
}

const cpus = os.cpus();
const machine = `${cpus.length} × ${cpus[0]?.model?.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${os.type()} ${os.release()}, Node ${process.version}`;
const load = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
const command = `node bench/run.mjs${only.length ? ' ' + only.join(' ') : ''}`;
// Each block says when and how its own figures were made, since blocks are rewritten separately.
const blocks = {};
for (const run of runs) {
  blocks[run.name] = [
    markdownFor(run).replace(/\s+$/, ''),
    '',
    `*Run on ${run.finishedAt} UTC by \`${command}\`, ${Math.round(run.seconds)} s. Machine: ${machine}. Load average after this benchmark (1/5/15 min): ${run.load}; the machine was shared, so absolute figures are noisy and ratios measured in the same run matter more.*`,
  ].join('\n');
}
const missing = BENCHES.filter((n) => !names.includes(n) && !only.length);

console.log('\n== report\n');
console.log(Object.values(blocks).join('\n'));
if (missing.length) console.log(`Skipped (no file): ${missing.join(', ')}.`);

if (write) {
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`;
  try {
    fs.writeFileSync(file, writeBlocks(before, blocks, BENCHES));
    console.log(`\nWrote the blocks of ${Object.keys(blocks).join(', ')} into ${path.relative(process.cwd(), file)}.`);
  } catch (error) {
    console.error(`\n${error.message}`);
    process.exit(1);
  }
} else {
  console.log(`\nBENCHMARKS.md not written${shortened.length ? ` (shortened run: ${shortened.join(', ')} set)` : ' (BENCH_NO_WRITE=1)'}.`);
}
process.exit(runs.some((r) => r.code !== 0) ? 1 : 0);
