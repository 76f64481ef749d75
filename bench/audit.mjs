// The audit log (issue 56), on the embedded file and on sqld (loopback), each a server of its own:
//   1. What an audit row adds to the request that causes it: a settings save
//      (PUT /api/contact-info, audited in its transaction) timed end to end, and the same
//      transaction's statements timed in this process with and without the audit row
//      (auditIn: one statement inserting the row on the head last seen, which the trigger of
//      migration 0033 moves), p95 of the difference.
//   2. The audit screen over 1,000,000 rows (real hashes, seeded in batches): a filtered page
//      (GET /api/audit, 50 rows) for each filter the screen offers, first and deep pages
//      (keyset), timed through the app as the screen asks.
//   3. npm run audit:verify over the million rows (reported, no budget).
// Budgets: the audit row adds < 2 ms p95; a filtered page of 1,000,000 rows < 200 ms (p95).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/libsql';
import { sql } from 'drizzle-orm';
import { fileAndSqldSides, ADMIN, ROOT, signIn, emit, main, ms, num, sampleLatency } from './lib.mjs';
import { connect } from '../src/db/connect.ts';
import * as schema from '../src/db/schema.ts';
import { auditIn } from '../src/server/audit/record.ts';
import { rowHash, GENESIS_HASH } from '../src/server/audit/chain.ts';

const ROWS = Number(process.env.BENCH_ROWS || 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES || 200);
const BUDGET = { writeAddedP95Ms: 2, pageP95Ms: 200 };
const STAFF = 40;
const CLIENTS = 600;
const LINKS = 300;
// A studio's mix: mostly sign-ins and downloads, a few rare kinds.
const KINDS = [
  ['sign_in.succeeded', 40], ['sign_in.failed', 8], ['download.original', 15], ['download.gallery', 10], ['approval.decided', 6], ['share_link.created', 5],
  ['share_link.edited', 4], ['settings.changed', 3], ['client.updated', 3], ['selection.submitted', 2], ['user.updated', 2], ['live.started', 1], ['backup.made', 1], ['permission.granted', 0.2],
];
const kindTable = KINDS.flatMap(([k, w]) => Array(Math.max(1, Math.round(w * 5))).fill(k));
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Deterministic pseudo-random numbers, so both sides hold the same rows. */
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** The server's own writes (its timers) may hold the lock a moment: a batch waits and goes again. */
async function busyRetried(write) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (attempt >= 20 || e?.code !== 'SQLITE_BUSY') throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** 1,000,000 chained rows over the last ~350 days, written in batches through `client`. */
async function seedRows(client) {
  const rand = rng(56);
  const start = Date.now() - 350 * 86_400_000;
  const step = Math.floor((350 * 86_400_000) / ROWS);
  let prev = GENESIS_HASH;
  const BATCH = 500;
  for (let first = 1; first <= ROWS; first += BATCH) {
    const values = [];
    const args = [];
    for (let id = first; id < Math.min(first + BATCH, ROWS + 1); id++) {
      const kind = kindTable[Math.floor(rand() * kindTable.length)];
      const who = rand();
      const [actorType, actorKey] =
        who < 0.45 ? ['staff', `staff:bench-${Math.floor(rand() * STAFF)}`] : who < 0.85 ? ['client', `client:${1 + Math.floor(rand() * CLIENTS)}`] : ['guest', `link:${1 + Math.floor(rand() * LINKS)}`];
      const objectType = kind.startsWith('share_link') ? 'share_link' : kind.startsWith('download') || kind === 'approval.decided' || kind === 'live.started' ? 'media' : kind.startsWith('client') ? 'client' : 'user';
      const f = {
        id,
        at: start + id * step,
        actorType,
        actorKey,
        actorName: `${actorKey} name`,
        ip: `10.0.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)}`,
        agent: 'Firefox 141 on Linux',
        kind,
        objectType,
        objectId: String(1 + Math.floor(rand() * 20_000)),
        objectName: 'Object',
        factor: kind.startsWith('sign_in') ? 'password' : null,
        detail: '',
      };
      const hash = rowHash(prev, f);
      values.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      args.push(f.id, f.at, f.actorType, f.actorKey, f.actorName, f.ip, f.agent, f.kind, f.objectType, f.objectId, f.objectName, f.factor, f.detail, prev, hash);
      prev = hash;
    }
    await busyRetried(() =>
      client.execute({
        sql: `INSERT INTO audit_log (id, at, actor_type, actor_key, actor_name, ip, agent, kind, object_type, object_id, object_name, factor, detail, prev_hash, hash) VALUES ${values.join(', ')}`,
        args,
      }),
    );
  }
  await client.execute({ sql: 'UPDATE audit_state SET head_id = ?, head_hash = ?, head_at = ? WHERE id = 1', args: [ROWS, prev, start + ROWS * step] });
}

async function timedGet(url, cookie, retried = false) {
  const t = performance.now();
  let res;
  try {
    res = await fetch(url, { headers: { Cookie: cookie, 'Accept-Encoding': 'gzip' } });
  } catch (e) {
    // A kept-alive connection the server closed while the rows were seeded (minutes idle):
    // a GET is sent again once, on a new connection, and timed from there.
    if (retried || e?.cause?.code !== 'UND_ERR_SOCKET') throw e;
    return timedGet(url, cookie, true);
  }
  const body = await res.json();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - t, body };
}

/** The screen's filters: what a page of each costs, the first and the 20th page. */
function filters(day) {
  return [
    ['no filter', ''],
    ['kind (common)', 'kind=sign_in.succeeded'],
    ['kind (rare)', 'kind=permission.granted'],
    ['person (staff)', 'actor=staff:bench-7'],
    ['person (client)', 'actor=client:42'],
    ['object', 'objectType=media&objectId=1234'],
    ['one day', `from=${day}&to=${day}`],
    ['kind + month', `kind=download.original&from=${day.slice(0, 8)}01&to=${day}`],
    ['person + kind', 'actor=staff:bench-7&kind=settings.changed'],
  ];
}

async function pageTimes(side, q) {
  const times = [];
  const deep = [];
  for (let i = 0; i < Math.max(5, Math.floor(SAMPLES / 20)); i++) {
    const first = await timedGet(`${side.server.url}/api/audit?${q}&limit=50`, side.cookie);
    times.push(first.ms);
    // Keyset: walk 20 pages in, time the 20th.
    let next = first.body.next;
    for (let p = 1; p < 20 && next; p++) {
      const page = await timedGet(`${side.server.url}/api/audit?${q}&limit=50&before=${next}`, side.cookie);
      next = page.body.next;
      if (p === 19) deep.push(page.ms);
    }
  }
  return { p50: median(times), p95: p95(times), deepP95: deep.length ? p95(deep) : null };
}

/** Same transaction with and without the audit row, timed in this process on `client`. */
async function writeCost(client) {
  // The server beside it may be writing (its start-up work): wait for the lock, as the app does.
  if (client.protocol === 'file') await client.execute('PRAGMA busy_timeout = 5000');
  await client.execute('CREATE TABLE IF NOT EXISTS bench_dummy (id INTEGER PRIMARY KEY, n INTEGER)');
  await client.execute('INSERT OR IGNORE INTO bench_dummy (id, n) VALUES (1, 0)');
  const db = drizzle(client, { schema });
  const origin = { actor: { type: 'staff', key: 'staff:bench', name: 'Bench' }, ip: '127.0.0.1', agent: 'bench' };
  const without = [];
  const withAudit = [];
  for (let i = 0; i < SAMPLES * 2; i++) {
    const audited = i % 2 === 1;
    const t = performance.now();
    await db.transaction(async (tx) => {
      await tx.run(sql`UPDATE bench_dummy SET n = n + 1 WHERE id = 1`);
      if (audited) await auditIn(tx, origin, { kind: 'settings.changed', object: { type: 'settings', id: 'contact' }, detail: { fields: ['contactPhone'] } });
    });
    (audited ? withAudit : without).push(performance.now() - t);
  }
  return { withoutP95: p95(without), withP95: p95(withAudit), addedP95: p95(withAudit) - p95(without), addedP50: median(withAudit) - median(without) };
}

function verifyTime(databaseUrl) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const p = spawn(process.execPath, [path.join(ROOT, 'scripts/audit-verify.mjs')], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } });
    let out = '';
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (out += c));
    p.on('close', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(out))));
  });
}

main(async () => {
  const { sides, stop } = await fileAndSqldSides('audit');
  const results = [];
  try {
    for (const side of sides) {
      side.cookie = await signIn(side.server.url, 'staff', ADMIN.username, ADMIN.password);
      // 1. Before the million rows: the cost of a row in an empty log is the same (one head read).
      const own = connect({ url: side.server.databaseUrl });
      const cost = await writeCost(own);
      own.close();
      const put = await sampleLatency(async () => {
        const res = await fetch(`${side.server.url}/api/contact-info`, {
          method: 'PUT',
          headers: { Cookie: side.cookie, Origin: side.server.url, 'Content-Type': 'application/json' },
          body: JSON.stringify({ contactPhone: `0116 496 ${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}` }),
        });
        await res.arrayBuffer();
        return res.status === 200;
      }, { count: SAMPLES, concurrency: 1 });
      console.log(`${side.name}: a transaction with its audit row p95 ${ms(cost.withP95)}, without ${ms(cost.withoutP95)}: the row adds ${ms(cost.addedP95)} at p95 (${ms(cost.addedP50)} at p50; budget < ${BUDGET.writeAddedP95Ms} ms); PUT /api/contact-info end to end p50 ${ms(put.p50)}, p95 ${ms(put.p95)}`);

      // 2. A million rows, then the screen's pages.
      const t = performance.now();
      await side.server.sql.execute('DELETE FROM audit_log');
      await seedRows(side.server.sql);
      const seedMs = performance.now() - t;
      const day = new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10);
      const pages = [];
      for (const [label, q] of filters(day)) {
        const r = await pageTimes(side, q);
        pages.push({ label, q, ...r });
        console.log(`${side.name}: ${label.padEnd(16)} first page p50 ${ms(r.p50)}, p95 ${ms(r.p95)}; 20th page p95 ${ms(r.deepP95)}`);
      }
      const verifyMs = await verifyTime(side.server.databaseUrl);
      console.log(`${side.name}: ${num(ROWS)} rows seeded in ${ms(seedMs)}; npm run audit:verify over them: ${ms(verifyMs)}`);
      const worst = Math.max(...pages.flatMap((p) => [p.p95, p.deepP95 ?? 0]));
      results.push({ side: side.name, write: cost, put: { p50: put.p50, p95: put.p95 }, seedMs, pages, verifyMs, worstPageP95: worst });
    }
    const ok = results.every((r) => r.write.addedP95 < BUDGET.writeAddedP95Ms && r.worstPageP95 < BUDGET.pageP95Ms);
    console.log(`Budgets: the audit row adds < ${BUDGET.writeAddedP95Ms} ms p95, a filtered page of ${num(ROWS)} rows < ${BUDGET.pageP95Ms} ms p95: ${ok ? 'met' : 'NOT met'} (${results.map((r) => `${r.side}: +${r.write.addedP95.toFixed(2)} ms, worst page ${r.worstPageP95.toFixed(1)} ms`).join('; ')})`);
    emit('audit', { rows: ROWS, samples: SAMPLES, budget: BUDGET, results, ok });
  } catch (e) {
    // A server that went away says why in its own output.
    for (const side of sides) console.error(`${side.name} server output (last 3,000 characters):\n${side.server.output().slice(-3000)}`);
    throw e;
  } finally {
    await stop();
  }
});
