// 50 portal clients at once, each posting feedback and timeline notes on a video assigned to
// it. Reports requests/s and errors, and checks the stored count equals the acknowledged count.
import { startServer, ADMIN, signIn, emit, main, ms, num } from './lib.mjs';

const CLIENTS = Number(process.env.BENCH_PORTAL_CLIENTS || 50);
const PER_CLIENT = Number(process.env.BENCH_PORTAL_WRITES || 40); // half feedback, half notes

/** A request unanswered after this long counts as an error ('timeout') instead of stopping the run. */
const DEADLINE_MS = 60_000;

async function post(base, cookie, path, body) {
  try {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: base, Cookie: cookie },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(DEADLINE_MS),
    });
    await res.arrayBuffer();
    return res.status;
  } catch (e) {
    if (e.name === 'TimeoutError') return 'timeout';
    throw e;
  }
}

/**
 * Portal clients on a running server: each with a login made through the API (argon2 hashing
 * included), a video of its own and a signed-in session. Answers their cookies and videos.
 */
export async function portalClients(server, { clients = CLIENTS, prefix = 'bench' } = {}) {
  const staff = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
  const logins = [];
  const before = Number((await server.sql.execute('SELECT count(*) AS n FROM clients')).rows[0].n);
  for (let i = 0; i < clients; i++) {
    const username = `${prefix}.client${i}`;
    const password = `bench-password-${i}`;
    const status = await post(server.url, staff, '/api/clients', {
      name: `Bench Client ${prefix} ${i}`,
      email: `${prefix}${i}@client.test`,
      username,
      password,
    });
    if (status !== 201) throw new Error(`creating client ${i} answered ${status}`);
    logins.push({ username, password });
  }
  const clientIds = (await server.sql.execute({ sql: 'SELECT id FROM clients ORDER BY id LIMIT -1 OFFSET ?', args: [before] })).rows.map((r) => Number(r.id));
  // One video item per client, owned by it (metadata only: the writes never touch the file).
  const mediaIds = [];
  for (const [i, clientId] of clientIds.entries()) {
    const key = `${prefix}${String(i).padStart(33 - prefix.length, '0')}`;
    const r = await server.sql.execute({
      sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, client_id, duration_seconds)
            VALUES (?, 'video', ?, ?, 'bench.mp4', 1000, 'video/mp4', ?, 120) RETURNING id`,
      args: [`Bench video ${i}`, key, `/media/${key}/original.mp4`, clientId],
    });
    mediaIds.push(Number(r.rows[0].id));
  }
  // One at a time: sign-ins from one address are throttled at 20 in any 15 minutes, counted
  // before the password is checked, so 50 at once would see 429s (src/server/auth/throttle.ts).
  const cookies = [];
  for (const l of logins) cookies.push(await signIn(server.url, 'client', l.username, l.password));
  return { cookies, mediaIds };
}

/**
 * The writes themselves on a running server: `clients` portal clients (portalClients), then
 * every client posting `perClient` times at once. `alongside(writing)`, when given, starts
 * with the writes and is awaited after them (`writing()` is false from then). Answers the figures.
 */
export async function portalWrites(server, { clients = CLIENTS, perClient = PER_CLIENT, prefix = 'bench', alongside } = {}) {
  const { cookies, mediaIds } = await portalClients(server, { clients, prefix });
  const count = async (table) => Number((await server.sql.execute({ sql: `SELECT count(*) AS n FROM ${table} WHERE media_id >= ?`, args: [mediaIds[0]] })).rows[0].n);

  let acknowledged = { feedback: 0, notes: 0 };
  let errors = 0;
  const statuses = {};
  const latencies = [];
  let writing = true;
  const beside = alongside?.(() => writing);
  const started = performance.now();
  await Promise.all(
    cookies.map(async (cookie, i) => {
      const mediaId = mediaIds[i];
      for (let n = 0; n < perClient; n++) {
        const feedback = n % 2 === 0;
        const t = performance.now();
        const status = feedback
          ? await post(server.url, cookie, `/api/client/media/${mediaId}/feedback`, { mediaId, feedbackText: `Looks great, take ${n}`, rating: (n % 5) + 1 })
          : await post(server.url, cookie, `/api/client/media/${mediaId}/timeline-notes`, { mediaId, timestampSeconds: n * 1.5, noteText: `Cut here ${n}` });
        latencies.push(performance.now() - t);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 201) acknowledged[feedback ? 'feedback' : 'notes']++;
        else errors++;
      }
    }),
  );
  const elapsed = performance.now() - started;
  writing = false;
  await beside;
  const sent = clients * perClient;
  const stored = { feedback: await count('client_feedback'), notes: await count('timeline_notes') };
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.ceil((q / 100) * latencies.length) - 1];
  const countsMatch = stored.feedback === acknowledged.feedback && stored.notes === acknowledged.notes;
  return { clients, perClient, sent, elapsedMs: elapsed, rps: (sent / elapsed) * 1000, p50: p(50), p95: p(95), p99: p(99), errors, statuses, acknowledged, stored, countsMatch };
}

if (import.meta.main) {
  main(async () => {
    const server = await startServer();
    try {
      const r = await portalWrites(server);
      console.log(
        `${r.clients} clients × ${r.perClient} posts = ${num(r.sent)} writes in ${ms(r.elapsedMs)}: ${num(r.rps, 1)} req/s, ` +
          `p50 ${ms(r.p50)} p95 ${ms(r.p95)} p99 ${ms(r.p99)}; errors ${r.errors} (statuses ${JSON.stringify(r.statuses)}); ` +
          `stored feedback ${r.stored.feedback}/${r.acknowledged.feedback}, notes ${r.stored.notes}/${r.acknowledged.notes} ${r.countsMatch ? '(match)' : '(MISMATCH)'}`,
      );
      emit('portal-writes', r);
      if (r.errors || !r.countsMatch) process.exitCode = 1;
    } finally {
      await server.stop();
    }
  });
}
