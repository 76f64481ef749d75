// The database on a libSQL server (sqld over loopback, issue 44) against the embedded file, in
// one run, each figure a ratio of two servers measured alternately:
//   1. the admin media list with 10,000 items and 500 clients: the first GET after an edit
//      (the list rebuilt from the database: its queries and chunks) and the cache hit after it;
//   2. 50 portal clients posting feedback and notes at once (2,000 writes);
//   3. anonymous public reads (GET /api/media/featured, 200 items, autocannon): the file against
//      a web process whose cookieless reads go to a sqld read replica beside it (goal >= 0.5);
//   4. job claims per second: 2,000 queued jobs claimed by 4 claimers (the app's claim()) on two
//      "hosts" (two folders, two processes each), on sqld and, for reference, on the file;
//   5. replica lag: from a staff edit acknowledged by the primary until the replica answers it,
//      idle and while 50 portal clients write;
//   6. the primary stopped for 10 s (SIGKILL, restarted on its address) while clients post,
//      staff read and anonymous visitors read beside the replica: which answers came, whether
//      every acknowledged write is there once, how soon writes go through again and how soon
//      the replica has a write made after the restart.
// Budgets (issue 44, docs/database.md): replica reads >= 0.5 of the file's; replica lag p95
// <= 1 s (the staleness bound anonymous readers are promised); in the outage nothing but 2xx or
// the 503 with its message, nothing lost or doubled, anonymous reads beside the replica all
// answered, writes through <= 5 s and the replica caught up <= 5 s after the primary is back.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, ADMIN, ROOT, signIn, cannon, emit, main, ms, num } from './lib.mjs';
import { seedLibrary } from './seed.mjs';
import { portalClients, portalWrites } from './portal-writes.mjs';
import { startSqld } from '../tests/helpers/sqld.ts';
import { connect } from '../src/db/connect.ts';

const MEDIA = Number(process.env.BENCH_MEDIA || 10_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS || 500);
const COLD = Number(process.env.BENCH_COLD_SAMPLES || 12);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 2);
const JOBS = 2000;
const LAG_WRITES = Number(process.env.BENCH_LAG_WRITES || 30);
const OUTAGE_MS = 10_000;
const BUDGET = { readRatio: 0.5, lagP95Ms: 1000, writesBackMs: 5000, catchUpMs: 5000 };
const UNAVAILABLE = /^The database is (not reachable|busy) right now/;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)];

async function timedGet(url, cookie) {
  const t = performance.now();
  const res = await fetch(url, { headers: { Cookie: cookie, 'Accept-Encoding': 'gzip' } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return performance.now() - t;
}

/** N times: an edit, the first GET of the list (rebuilt), a second GET (cached). */
async function listTimes(side, cookie, id, i) {
  const put = await fetch(`${side.server.url}/api/media/${id}`, {
    method: 'PUT',
    headers: { Cookie: cookie, Origin: side.server.url, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: `Edited ${i}` }),
  });
  if (put.status !== 200) throw new Error(`PUT: ${put.status}`);
  const cold = await timedGet(`${side.server.url}/api/media`, cookie);
  const warm = await timedGet(`${side.server.url}/api/media`, cookie);
  return { cold, warm };
}

/** 4 claimers on two folders ("hosts"), the app's claim() until the queue is empty: claims/s. */
async function claimRate(server, databaseUrl) {
  const [{ id: mediaId, v }] = (await server.sql.execute('SELECT m.id, v.id AS v FROM media m JOIN media_versions v ON v.media_id = m.id LIMIT 1')).rows.map((r) => ({ id: Number(r.id), v: Number(r.v) }));
  await server.sql.execute({
    sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO jobs (kind, media_id, version_id) SELECT 'transcode', ?, ? FROM n`,
    args: [JOBS, mediaId, v],
  });
  const hosts = [0, 1].map((h) => fs.mkdtempSync(path.join(os.tmpdir(), `bench-host${h}-`)));
  const claimers = [0, 1, 2, 3].map((n) => {
    const proc = spawn(process.execPath, [path.join(ROOT, 'tests/helpers/claimer.ts'), `claimer-${n}`], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, MEDIA_DIR: path.join(hosts[n % 2], 'media') },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const c = { proc, out: '' };
    proc.stdout.on('data', (d) => (c.out += d));
    return c;
  });
  try {
    const waitFor = (re) =>
      Promise.all(
        claimers.map(
          (c) =>
            new Promise((resolve, reject) => {
              const check = () => (re.test(c.out) ? resolve(c.out.match(re)) : null);
              if (check() === null) c.proc.stdout.on('data', check);
              c.proc.once('exit', (code) => (re.test(c.out) ? resolve(c.out.match(re)) : reject(new Error(`claimer exited ${code}: ${c.out}`))));
            }),
        ),
      );
    await waitFor(/CLAIMER_READY/);
    const t = performance.now();
    for (const c of claimers) c.proc.stdin.write('go\n');
    const done = await waitFor(/CLAIMED (\[.*\])/);
    const elapsed = performance.now() - t;
    const ids = done.flatMap((m) => JSON.parse(m[1]));
    if (ids.length !== JOBS || new Set(ids).size !== JOBS) throw new Error(`claims: ${ids.length} of ${JOBS}, ${new Set(ids).size} distinct`);
    return { perSecond: (JOBS / elapsed) * 1000, elapsedMs: elapsed, perClaimer: done.map((m) => JSON.parse(m[1]).length) };
  } finally {
    for (const c of claimers) c.proc.kill('SIGKILL');
    for (const h of hosts) fs.rmSync(h, { recursive: true, force: true });
  }
}

async function send(base, method, url, cookie, body) {
  const res = await fetch(base + url, {
    method,
    headers: { Origin: base, ...(cookie ? { Cookie: cookie } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, body: json };
}

/** A staff edit through the web process (the primary), then ms until the replica answers it. */
async function lagOnce(side, replicaSql, id, title) {
  const put = await send(side.server.url, 'PUT', `/api/media/${id}`, side.cookie, { title });
  if (put.status !== 200) throw new Error(`PUT: ${put.status} ${JSON.stringify(put.body)}`);
  const t = performance.now();
  while (performance.now() - t < 30_000) {
    const r = await replicaSql.execute({ sql: 'SELECT title FROM media WHERE id = ?', args: [id] });
    if (r.rows[0]?.title === title) return performance.now() - t;
  }
  throw new Error(`the replica did not show "${title}" within 30 s`);
}

const summary = (xs) => ({ count: xs.length, p50: median(xs), p95: p95(xs), max: Math.max(...xs) });

/**
 * The primary stopped for OUTAGE_MS while people work on the web process beside the replica:
 * 10 portal clients posting feedback, staff reading an item's versions, 2 anonymous visitors reading the
 * featured list (from the replica). Each loop pauses 250 ms after a 503.
 */
async function primaryOutage(side, db, replicaSql) {
  const { cookies, mediaIds } = await portalClients(side.server, { clients: 10, prefix: 'outage' });
  const run = `outage-${Date.now()}`;
  const log = []; // { kind, status, at, ok, marker }
  let stop = false;
  const loop = async (kind, fn) => {
    for (let i = 0; !stop; i++) {
      const r = await fn(i).catch((e) => ({ status: 0, body: { message: String(e) } }));
      const at = performance.now();
      const ok = r.status >= 200 && r.status < 300;
      const unavailable = r.status === 503 && UNAVAILABLE.test(r.body?.message ?? '');
      log.push({ kind, status: r.status, at, ok, unavailable, marker: r.marker });
      if (unavailable) await new Promise((res) => setTimeout(res, 250));
    }
  };
  const loops = [
    ...cookies.map((cookie, c) =>
      loop('client write', async (i) => {
        const marker = `${run}-${c}-${i}`;
        const mediaId = mediaIds[c];
        return { ...(await send(side.server.url, 'POST', `/api/client/media/${mediaId}/feedback`, cookie, { mediaId, feedbackText: marker, rating: 3 })), marker };
      }),
    ),
    loop('staff read', () => send(side.server.url, 'GET', `/api/media/${side.item}/versions`, side.cookie)),
    ...[0, 1].map(() => loop('anonymous read', () => send(side.server.url, 'GET', '/api/media/featured'))),
  ];
  const writesSince = (t) => log.filter((e) => e.kind === 'client write' && e.ok && e.at > t).length;
  const waitFor = async (what, ok, ms) => {
    const end = performance.now() + ms;
    while (!ok()) {
      if (performance.now() > end) throw new Error(`outage: ${what} not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    const begun = performance.now();
    await waitFor('writes going through', () => writesSince(begun) >= 50, 60_000);
    const old = db.primary;
    await old.stop('SIGKILL');
    const down = performance.now();
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    db.primary = await startSqld({ dir: old.dir, httpPort: old.httpPort, grpcPort: old.grpcPort });
    const back = performance.now();
    await waitFor('writes going through again', () => writesSince(back) > 0, 60_000);
    const writesBackMs = log.find((e) => e.kind === 'client write' && e.ok && e.at > back).at - back;
    // A write after the restart, and how soon the replica has it.
    let put;
    for (let i = 0; (put = await send(side.server.url, 'PUT', `/api/media/${side.item}`, side.cookie, { title: `${run} after` })).status !== 200; i++) {
      if (i > 100) throw new Error(`PUT after the restart: ${put.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const acked = performance.now();
    for (;;) {
      const r = await replicaSql.execute({ sql: 'SELECT title FROM media WHERE id = ?', args: [side.item] }).catch(() => null);
      if (r?.rows[0]?.title === `${run} after`) break;
      if (performance.now() - acked > 60_000) throw new Error('the replica did not catch up within 60 s');
    }
    const catchUpMs = performance.now() - acked;
    await new Promise((r) => setTimeout(r, 2000));
    stop = true;
    await Promise.all(loops);

    const during = (e) => e.at > down && e.at <= back;
    const tally = (kind, filter = () => true) => {
      const es = log.filter((e) => e.kind === kind && filter(e));
      return { total: es.length, ok: es.filter((e) => e.ok).length, unavailable: es.filter((e) => e.unavailable).length, other: es.filter((e) => !e.ok && !e.unavailable).map((e) => e.status) };
    };
    const kinds = ['client write', 'staff read', 'anonymous read'];
    const outage = Object.fromEntries(kinds.map((k) => [k, tally(k, during)]));
    const all = Object.fromEntries(kinds.map((k) => [k, tally(k)]));
    const acknowledged = log.filter((e) => e.kind === 'client write' && e.ok).map((e) => e.marker);
    const stored = (await side.server.sql.execute({ sql: 'SELECT feedback_text AS t, count(*) AS n FROM client_feedback WHERE feedback_text LIKE ? GROUP BY feedback_text', args: [`${run}-%`] })).rows;
    const storedOnce = new Set(stored.filter((r) => Number(r.n) === 1).map((r) => String(r.t)));
    const doubled = stored.filter((r) => Number(r.n) > 1).length;
    const lost = acknowledged.filter((m) => !storedOnce.has(m)).length;
    const integrity = String(Object.values((await side.server.sql.execute('PRAGMA integrity_check')).rows[0])[0]);
    return { outageMs: back - down, outage, all, acknowledged: acknowledged.length, stored: stored.length, lost, doubled, integrity, writesBackMs, catchUpMs };
  } finally {
    stop = true;
    await Promise.all(loops);
  }
}

main(async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sqld-'));
  // The primary is restarted in the outage (6.): `db.primary` is the one running.
  const db = { primary: await startSqld({ dir: path.join(work, 'primary') }) };
  const primary = db.primary;
  const replica = await startSqld({ dir: path.join(work, 'replica'), primaryGrpcUrl: primary.grpcUrl });
  const replicaSql = connect({ url: replica.url });
  const file = { name: 'file', server: await startServer({ env: { WORKER: 'off' } }) };
  const sqld = { name: 'sqld', server: await startServer({ databaseUrl: primary.url, env: { WORKER: 'off', DATABASE_REPLICA_URL: replica.url } }) };
  const sides = [file, sqld];
  try {
    for (const side of sides) {
      const t = performance.now();
      await seedLibrary(side.server.sql, { media: MEDIA, clients: CLIENTS });
      side.seedMs = performance.now() - t;
      side.cookie = await signIn(side.server.url, 'staff', ADMIN.username, ADMIN.password);
      side.item = Number((await side.server.sql.execute('SELECT id FROM media ORDER BY id LIMIT 1')).rows[0].id);
    }
    // The replica has the seeded library before anything is timed on it.
    const want = Number((await sqld.server.sql.execute('SELECT count(*) AS n FROM media')).rows[0].n);
    while (Number((await replicaSql.execute('SELECT count(*) AS n FROM media')).rows[0].n) !== want) await new Promise((r) => setTimeout(r, 100));

    // 1. The admin list after an edit, and from the cache; sides alternate.
    for (const side of sides) side.list = { cold: [], warm: [] };
    await listTimes(file, file.cookie, file.item, -1);
    await listTimes(sqld, sqld.cookie, sqld.item, -1);
    for (let i = 0; i < COLD; i++) {
      for (const side of i % 2 ? [sqld, file] : sides) {
        const { cold, warm } = await listTimes(side, side.cookie, side.item, i);
        side.list.cold.push(cold);
        side.list.warm.push(warm);
      }
    }
    const list = Object.fromEntries(sides.map((s) => [s.name, { coldP50: median(s.list.cold), coldP95: p95(s.list.cold), warmP50: median(s.list.warm) }]));
    console.log(`${num(MEDIA)} items, ${num(CLIENTS)} clients (seeded in ${ms(file.seedMs)} on the file, ${ms(sqld.seedMs)} on sqld); ${COLD} edits per side, alternating`);
    for (const s of sides) console.log(`  GET /api/media after an edit, ${s.name.padEnd(4)}: p50 ${ms(list[s.name].coldP50)}, p95 ${ms(list[s.name].coldP95)}; from the cache p50 ${ms(list[s.name].warmP50)}`);
    const listRatio = list.file.coldP50 / list.sqld.coldP50;
    console.log(`  rebuilt list, sqld against the file (time ratio, file / sqld): ${listRatio.toFixed(2)}`);

    // 3. Anonymous reads: the file against the replica beside the web process; alternating.
    const reads = { file: [], replica: [] };
    // The first request on each side builds what the list caches (seconds on a loaded machine):
    // not what a visitor of a running site waits for.
    for (const side of sides) for (let i = 0; i < 3; i++) await fetch(`${side.server.url}/api/media/featured`).then((r) => r.arrayBuffer());
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, side] of round % 2 ? [['replica', sqld], ['file', file]] : [['file', file], ['replica', sqld]]) {
        const r = await cannon({ url: `${side.server.url}/api/media/featured` });
        reads[name].push(r);
      }
    }
    const rps = (runs) => runs.reduce((n, r) => n + r.rps, 0) / runs.length;
    const readRatio = rps(reads.replica) / rps(reads.file);
    console.log(`GET /api/media/featured anonymous (200 items), autocannon ${ROUNDS} alternating runs per side:`);
    console.log(`  file ${num(rps(reads.file))} req/s (p99 ${reads.file.map((r) => r.p99).join(' / ')} ms); replica ${num(rps(reads.replica))} req/s (p99 ${reads.replica.map((r) => r.p99).join(' / ')} ms)`);
    // Errors (autocannon: failed or unanswered within 10 s) are counted, not a reason to stop.
    const failed = (runs) => runs.reduce((n, r) => n + r.non2xx + r.errors, 0);
    console.log(`  non-2xx, failed or unanswered in 10 s: file ${failed(reads.file)}, replica ${failed(reads.replica)}`);
    console.log(`  replica against the file: ${readRatio.toFixed(2)} (goal >= 0.5: ${readRatio >= 0.5 && !failed(reads.replica) ? 'met' : 'missed'})`);

    // 2. Portal writes (their own clients and items on each side).
    const writes = {};
    for (const side of sides) writes[side.name] = await portalWrites(side.server);
    for (const s of sides) {
      const w = writes[s.name];
      console.log(`portal writes, ${s.name.padEnd(4)}: ${w.clients} clients × ${w.perClient} = ${num(w.sent)} in ${ms(w.elapsedMs)}: ${num(w.rps, 1)} req/s, p50 ${ms(w.p50)} p95 ${ms(w.p95)}; errors ${w.errors}; stored = acknowledged: ${w.countsMatch ? 'yes' : 'NO'}`);
    }
    const writeRatio = writes.sqld.rps / writes.file.rps;
    console.log(`  sqld against the file (req/s): ${writeRatio.toFixed(2)}`);

    // 4. Job claims, 4 claimers on two hosts.
    const claims = { sqld: await claimRate(sqld.server, primary.url), file: await claimRate(file.server, file.server.databaseUrl) };
    console.log(`job claims, ${JOBS} jobs, 4 claimers on two hosts: sqld ${num(claims.sqld.perSecond)}/s (${claims.sqld.perClaimer.join(' + ')}), file ${num(claims.file.perSecond)}/s (${claims.file.perClaimer.join(' + ')}); each job claimed once on both`);

    // 5. Replica lag, idle and under the portal writes of 50 clients.
    const idle = [];
    for (let i = 0; i < LAG_WRITES; i++) idle.push(await lagOnce(sqld, replicaSql, sqld.item, `Lag idle ${i}`));
    const loaded = [];
    const load = await portalWrites(sqld.server, {
      perClient: 10,
      prefix: 'lag',
      alongside: async (writing) => {
        for (let i = 0; writing(); i++) loaded.push(await lagOnce(sqld, replicaSql, sqld.item, `Lag loaded ${i}`));
      },
    });
    const lag = { idle: summary(idle), loaded: summary(loaded), loadRps: load.rps };
    const lagMet = lag.idle.p95 <= BUDGET.lagP95Ms && lag.loaded.p95 <= BUDGET.lagP95Ms;
    console.log(`replica lag, a staff edit acknowledged to the replica answering it (budget p95 <= ${BUDGET.lagP95Ms} ms: ${lagMet ? 'met' : 'missed'}):`);
    for (const [name, l] of [['idle', lag.idle], [`under ${load.clients} clients writing (${num(load.rps, 1)} req/s)`, lag.loaded]]) console.log(`  ${name}: ${l.count} edits, p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, worst ${ms(l.max)}`);

    // 6. The primary stopped for 10 s (last: it restarts the primary).
    const out = await primaryOutage(sqld, db, replicaSql);
    const o = out.outage;
    const wrong = Object.values(out.all).flatMap((t) => t.other);
    const outageMet = {
      answers: wrong.length === 0,
      nothingLost: out.lost === 0 && out.doubled === 0 && out.integrity === 'ok',
      replicaServed: o['anonymous read'].ok === o['anonymous read'].total && o['anonymous read'].total > 0,
      writesBack: out.writesBackMs <= BUDGET.writesBackMs,
      catchUp: out.catchUpMs <= BUDGET.catchUpMs,
    };
    console.log(`primary stopped (SIGKILL) for ${ms(out.outageMs)} under 10 clients writing, staff reading, 2 anonymous readers beside the replica:`);
    console.log(`  while down: client writes ${o['client write'].ok} ok / ${o['client write'].unavailable} 503; staff reads ${o['staff read'].ok} ok / ${o['staff read'].unavailable} 503; anonymous reads ${o['anonymous read'].ok} of ${o['anonymous read'].total} answered from the replica (budget all: ${outageMet.replicaServed ? 'met' : 'missed'})`);
    console.log(`  answers other than 2xx or the 503 with its message, whole run: ${wrong.length ? wrong.join(', ') : 'none'} (budget none: ${outageMet.answers ? 'met' : 'missed'})`);
    console.log(`  acknowledged writes ${out.acknowledged}, stored ${out.stored}: lost ${out.lost}, doubled ${out.doubled}; integrity ${out.integrity} (budget nothing lost: ${outageMet.nothingLost ? 'met' : 'missed'})`);
    console.log(`  after the restart: writes through in ${ms(out.writesBackMs)} (budget <= ${BUDGET.writesBackMs} ms: ${outageMet.writesBack ? 'met' : 'missed'}); the replica had the next edit ${ms(out.catchUpMs)} after it was acknowledged (budget <= ${BUDGET.catchUpMs} ms: ${outageMet.catchUp ? 'met' : 'missed'})`);

    emit('sqld', { media: MEDIA, clients: CLIENTS, list, listRatio, reads: { file: rps(reads.file), replica: rps(reads.replica), ratio: readRatio, failed: { file: failed(reads.file), replica: failed(reads.replica) } }, writes, writeRatio, claims, lag, outage: out, budgets: { ...BUDGET, lagMet, outageMet } });
    if (Object.values(writes).some((w) => w.errors || !w.countsMatch) || load.errors || !load.countsMatch || !outageMet.answers || !outageMet.nothingLost) process.exitCode = 1;
  } finally {
    for (const side of sides) await side.server.stop();
    replicaSql.close();
    await replica.stop();
    await db.primary.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
});
