#!/usr/bin/env node
// Issue 57 budget: opening an item with a 5-stage round, 30 reviewers and 500 notes (200 of them
// tasks) answers p95 < 150 ms (API), on the embedded file and on sqld (loopback). "Opening" is
// what the staff detail dialog asks for at once, in parallel: the item's versions, its notes
// (each with its task), its feedback and its round's status board. Each request is timed
// alone too. The item is seeded through the API where the API is the subject (the round, its
// decisions) and in SQL where it is bulk (users, notes, tasks).
//   npx node bench/rounds.mjs   (Node 24 from the project; needs a build; run.mjs runs it as `rounds`)
import { fileAndSqldSides, ADMIN, signIn, emit, main, ms, sampleLatency } from './lib.mjs';
import { createImage } from '../tests/helpers/portal-fixtures.ts';
import { hashPassword } from '../src/server/auth/password.ts';

const STAGES = 5;
const PER_STAGE = 6; // 30 reviewers
const NOTES = 500;
const TASKS = 200;
const SAMPLES = Number(process.env.BENCH_SAMPLES || 200);
const BUDGET_P95_MS = 150;
// The reviewers' due digest: 500 people, each undecided in a due stage (50 items × 10 logins).
const DIGEST_PEOPLE = 500;
const DIGEST_BUDGET_MS = 10_000;

/** Seeds the digest's reviewers in SQL on the stopped server's database, then times one digest in this process. */
async function timeDigest(server) {
  const { createClient } = await import('@libsql/client');
  const c = createClient({ url: server.databaseUrl });
  const clientId = Number((await c.execute("INSERT INTO clients (name, email) VALUES ('Digest Client', 'digest@clients.test') RETURNING id")).rows[0].id);
  const logins = [];
  for (let i = 0; i < DIGEST_PEOPLE; i += 100) {
    const batch = Array.from({ length: Math.min(100, DIGEST_PEOPLE - i) }, (_, k) => ({ sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?) RETURNING id', args: [clientId, `digest.${i + k}`, `digest.${i + k}@clients.test`, passwordHash] }));
    for (const r of await c.batch(batch, 'write')) logins.push(Number(r.rows[0].id));
  }
  const due = Date.now() + 3600_000;
  for (let item = 0; item < DIGEST_PEOPLE / 10; item++) {
    const key = crypto.randomUUID().replaceAll('-', '');
    const m = Number((await c.execute({ sql: "INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, client_id) VALUES (?, 'image', ?, ?, 'a.jpg', 1, 'image/jpeg', ?) RETURNING id", args: [`Digest item ${item}`, key, `/media/${key}/a.jpg`, clientId] })).rows[0].id);
    const r = Number((await c.execute({ sql: "INSERT INTO review_rounds (media_id, name) VALUES (?, 'Digest round') RETURNING id", args: [m] })).rows[0].id);
    const s = Number((await c.execute({ sql: "INSERT INTO review_stages (round_id, position, name, rule, status, due_at, opened_at) VALUES (?, 1, 'Client', 'all', 'open', ?, ?) RETURNING id", args: [r, due, Date.now()] })).rows[0].id);
    await c.batch(logins.slice(item * 10, item * 10 + 10).map((id) => ({ sql: "INSERT INTO review_stage_reviewers (stage_id, kind, client_user_id) VALUES (?, 'client', ?)", args: [s, id] })), 'write');
  }
  await c.execute("UPDATE notification_state SET review_digest_slot = '' WHERE id = 1");
  c.close();
  process.env.DATABASE_URL = server.databaseUrl;
  const { runReviewDigestIfDue } = await import('../src/server/rounds/due-digest.ts');
  const t = performance.now();
  const people = await runReviewDigestIfDue();
  return { people, ms: performance.now() - t };
}

const PASSWORD = 'bench-password-123';
const passwordHash = await hashPassword(PASSWORD);
let made = 0;

/** A staff user with a role holding view:media (a reviewer must see the library). */
async function createStaffUser(server, roleId) {
  const username = `bench-${++made}`;
  const id = crypto.randomUUID();
  await server.sql.execute({ sql: 'INSERT INTO users (id, username, email, password_hash, display_name) VALUES (?, ?, ?, ?, ?)', args: [id, username, `${username}@studio.test`, passwordHash, `Bench ${made}`] });
  await server.sql.execute({ sql: 'INSERT INTO user_roles (user_id, role_id) VALUES (?, ?)', args: [id, roleId] });
  return { id, username, password: PASSWORD };
}

async function createClientLogin(server, clientId) {
  const username = `bench.client.${++made}`;
  const r = await server.sql.execute({ sql: 'INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, ?, ?, ?) RETURNING id', args: [clientId, username, `${username}@clients.test`, passwordHash] });
  return { clientId, clientUserId: Number(r.rows[0].id) };
}

async function seed(server, cookie) {
  const api = async (method, path, body) => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { Cookie: cookie, 'Content-Type': 'application/json', Origin: server.url }, body: body ? JSON.stringify(body) : undefined });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const clientId = Number((await server.sql.execute("INSERT INTO clients (name, email) VALUES ('Bench Client', 'bench@clients.test') RETURNING id")).rows[0].id);
  const roleId = Number((await server.sql.execute("INSERT INTO roles (name) VALUES ('Bench reviewers') RETURNING id")).rows[0].id);
  await server.sql.execute({ sql: "INSERT INTO role_permissions (role_id, permission_id) SELECT ?, id FROM permissions WHERE name = 'view:media'", args: [roleId] });
  const client = { clientId };
  const logins = [];
  for (let i = 0; i < 10; i++) logins.push(await createClientLogin(server, clientId));
  const staff = [];
  for (let i = 0; i < STAGES * PER_STAGE - logins.length; i++) staff.push(await createStaffUser(server, roleId));
  const item = await createImage(server, { title: 'Round bench', clientId: client.clientId });
  const [version] = (await server.sql.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [item.id] })).rows;
  const reviewers = [...staff.map((s) => ({ kind: 'staff', userId: s.id })), ...logins.map((l) => ({ kind: 'client', clientUserId: l.clientUserId }))];
  const stages = Array.from({ length: STAGES }, (_, i) => ({ name: `Stage ${i + 1}`, rule: 'all', reviewers: reviewers.slice(i * PER_STAGE, (i + 1) * PER_STAGE), dueAt: new Date(Date.now() + (i + 1) * 86_400_000).toISOString() }));
  await api('POST', `/api/media/${item.id}/round`, { name: 'Bench round', stages });
  // Half the first stage has decided.
  for (const s of staff.slice(0, PER_STAGE / 2)) {
    const c = await signIn(server.url, 'staff', s.username, s.password);
    const res = await fetch(`${server.url}/api/media/${item.id}/round/decision`, { method: 'POST', headers: { Cookie: c, 'Content-Type': 'application/json', Origin: server.url }, body: JSON.stringify({ decision: 'approve', version: 1 }) });
    if (res.status !== 200) throw new Error(`decision: ${res.status} ${await res.text()}`);
  }
  const stmts = [];
  for (let i = 0; i < NOTES; i++) {
    stmts.push({ sql: "INSERT INTO timeline_notes (media_id, version_id, timestamp_seconds, timestamp_ms, note_text, by_staff, author_name) VALUES (?, ?, ?, ?, ?, 1, 'Bench')", args: [item.id, version.id, i % 60, (i % 60) * 1000 + i, `Bench note ${i}: tighten the cut here`] });
  }
  await server.sql.batch(stmts, 'write');
  const ids = (await server.sql.execute({ sql: 'SELECT id FROM timeline_notes WHERE media_id = ? ORDER BY id LIMIT ?', args: [item.id, TASKS] })).rows.map((r) => Number(r.id));
  await server.sql.batch(
    ids.map((id, i) => ({ sql: 'INSERT INTO note_tasks (timeline_note_id, assignee_id, state) VALUES (?, ?, ?)', args: [id, staff[i % staff.length].id, i % 3 === 0 ? 'done' : 'todo'] })),
    'write',
  );
  return item.id;
}

main(async () => {
  const { sides, stop } = await fileAndSqldSides('rounds');
  const results = [];
  try {
    for (const { name, server } of sides) {
      const cookie = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);
      const mediaId = await seed(server, cookie);
      const get = (path) => async () => {
        const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
        await res.arrayBuffer();
        return res.status === 200;
      };
      const paths = {
        versions: `/api/media/${mediaId}/versions`,
        notes: `/api/admin/media/timeline-notes?mediaId=${mediaId}`,
        feedback: `/api/admin/media/feedback?mediaId=${mediaId}`,
        round: `/api/media/${mediaId}/round`,
      };
      // A warm-up, as a dialog opened once before.
      for (const p of Object.values(paths)) await get(p)();
      const each = {};
      for (const [key, p] of Object.entries(paths)) each[key] = await sampleLatency(get(p), { count: SAMPLES, concurrency: 1 });
      const opening = await sampleLatency(async () => (await Promise.all(Object.values(paths).map((p) => get(p)()))).every(Boolean), { count: SAMPLES, concurrency: 1 });
      results.push({ side: name, opening, each });
    }
    // The digest, on the file side's database once its server has stopped (its notifier would race for the slot).
    const fileSide = sides.find((x) => x.name === 'file');
    await fileSide.server.kill();
    const digest = await timeDigest(fileSide.server);
    const ok = results.every((r) => r.opening.p95 < BUDGET_P95_MS && r.opening.failures === 0) && digest.people >= DIGEST_PEOPLE && digest.ms < DIGEST_BUDGET_MS;
    console.log(`Opening an item: ${STAGES} stages, ${STAGES * PER_STAGE} reviewers, ${NOTES} notes (${TASKS} tasks); ${SAMPLES} samples each, one at a time.`);
    console.log('| side | opening (4 requests in parallel) p50 / p95 | versions p95 | notes p95 | feedback p95 | round p95 |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const r of results) {
      console.log(`| ${r.side} | ${ms(r.opening.p50)} / **${ms(r.opening.p95)}** | ${ms(r.each.versions.p95)} | ${ms(r.each.notes.p95)} | ${ms(r.each.feedback.p95)} | ${ms(r.each.round.p95)} |`);
    }
    console.log(`Budget p95 < ${BUDGET_P95_MS} ms: ${ok ? 'met' : 'missed'} on ${results.map((r) => `${r.side} ${r.opening.p95.toFixed(1)} ms`).join(', ')}.`);
    console.log(`The reviewers' due digest (embedded file): ${digest.people} people emailed in ${(digest.ms / 1000).toFixed(2)} s (budget ${DIGEST_BUDGET_MS / 1000} s: ${digest.ms < DIGEST_BUDGET_MS && digest.people >= DIGEST_PEOPLE ? 'met' : 'missed'}).`);
    emit('rounds', { digest, stages: STAGES, reviewers: STAGES * PER_STAGE, notes: NOTES, tasks: TASKS, samples: SAMPLES, budgetP95Ms: BUDGET_P95_MS, results, ok });
  } finally {
    await stop();
  }
});
