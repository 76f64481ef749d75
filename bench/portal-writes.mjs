// 50 portal clients at once, each posting feedback and timeline notes on a video assigned to
// it. Reports requests/s and errors, and checks the stored count equals the acknowledged count.
import { startServer, ADMIN, signIn, emit, main, ms, num } from './lib.mjs';

const CLIENTS = Number(process.env.BENCH_PORTAL_CLIENTS || 50);
const PER_CLIENT = Number(process.env.BENCH_PORTAL_WRITES || 40); // half feedback, half notes

async function post(base, cookie, path, body) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base, Cookie: cookie },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

main(async () => {
  const server = await startServer();
  try {
    const staff = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
    // Clients with portal logins through the real API (argon2 hashing included).
    const logins = [];
    for (let i = 0; i < CLIENTS; i++) {
      const username = `bench.client${i}`;
      const password = `bench-password-${i}`;
      const status = await post(server.url, staff, '/api/clients', {
        name: `Bench Client ${i}`,
        email: `bench${i}@client.test`,
        username,
        password,
      });
      if (status !== 201) throw new Error(`creating client ${i} answered ${status}`);
      logins.push({ username, password });
    }
    const clientIds = (await server.sql.execute('SELECT id FROM clients ORDER BY id')).rows.map((r) => Number(r.id));
    // One video item per client, owned by it (metadata only: the writes never touch the file).
    const mediaIds = [];
    for (const [i, clientId] of clientIds.entries()) {
      const key = `bench${String(i).padStart(28, '0')}`;
      const r = await server.sql.execute({
        sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, client_id, duration_seconds)
              VALUES (?, 'video', ?, ?, 'bench.mp4', 1000, 'video/mp4', ?, 120) RETURNING id`,
        args: [`Bench video ${i}`, key, `/media/${key}/original.mp4`, clientId],
      });
      mediaIds.push(Number(r.rows[0].id));
    }
    const cookies = await Promise.all(logins.map((l) => signIn(server.url, 'client', l.username, l.password)));

    let acknowledged = { feedback: 0, notes: 0 };
    let errors = 0;
    const statuses = {};
    const latencies = [];
    const started = performance.now();
    await Promise.all(
      cookies.map(async (cookie, i) => {
        const mediaId = mediaIds[i];
        for (let n = 0; n < PER_CLIENT; n++) {
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
    const sent = CLIENTS * PER_CLIENT;
    const stored = {
      feedback: Number((await server.sql.execute('SELECT count(*) AS n FROM client_feedback')).rows[0].n),
      notes: Number((await server.sql.execute('SELECT count(*) AS n FROM timeline_notes')).rows[0].n),
    };
    latencies.sort((a, b) => a - b);
    const p = (q) => latencies[Math.ceil((q / 100) * latencies.length) - 1];
    const rps = (sent / elapsed) * 1000;
    const countsMatch = stored.feedback === acknowledged.feedback && stored.notes === acknowledged.notes;
    console.log(
      `${CLIENTS} clients × ${PER_CLIENT} posts = ${num(sent)} writes in ${ms(elapsed)}: ${num(rps, 1)} req/s, ` +
        `p50 ${ms(p(50))} p95 ${ms(p(95))} p99 ${ms(p(99))}; errors ${errors} (statuses ${JSON.stringify(statuses)}); ` +
        `stored feedback ${stored.feedback}/${acknowledged.feedback}, notes ${stored.notes}/${acknowledged.notes} ${countsMatch ? '(match)' : '(MISMATCH)'}`,
    );
    emit('portal-writes', { clients: CLIENTS, perClient: PER_CLIENT, sent, elapsedMs: elapsed, rps, p50: p(50), p95: p(95), p99: p(99), errors, statuses, acknowledged, stored, countsMatch });
    if (errors || !countsMatch) process.exitCode = 1;
  } finally {
    await server.stop();
  }
});
