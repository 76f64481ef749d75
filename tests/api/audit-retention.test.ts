// The audit log's retention (issue 56): rows older than AUDIT_RETENTION_DAYS go, oldest first;
// the anchor keeps the hash of the last one pruned, so what is left still verifies; the pruning
// is itself a row. Here a retention of about three seconds, checked five times a second.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { adminSession } from '../helpers/accounts.ts';
import { Session } from '../helpers/http.ts';
import { until } from '../helpers/until.ts';
import { verifyAudit as verify } from '../helpers/audit.ts';

const RETENTION_MS = 3000;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { WORKER: 'off', AUDIT_RETENTION_DAYS: String(RETENTION_MS / 86_400_000), AUDIT_PRUNE_INTERVAL_MS: '200' } });
});
afterAll(() => server?.stop());

const state = async () => (await server.sql.execute('SELECT head_id, anchor_id, anchor_hash FROM audit_state')).rows[0]!;

test('old rows are pruned, the rest still verifies from the anchor, and the pruning is recorded', async () => {
  const admin = await adminSession(server.url);
  for (let i = 0; i < 3; i++) await new Session(server.url).json('POST', '/api/login', { username: 'nobody', password: `wrong-${i}` });
  const written = Number((await state()).head_id);
  expect(written).toBeGreaterThanOrEqual(4);
  // Every row written so far goes once it is older than the retention.
  const pruned = await until('the first rows pruned', async () => {
    const s = await state();
    return Number(s.anchor_id) >= written ? s : null;
  }, 30_000);
  const first = Number((await server.sql.execute('SELECT min(id) AS id FROM audit_log')).rows[0]!.id ?? 0);
  expect(first === 0 || first > Number(pruned.anchor_id)).toBe(true);
  const left = await server.sql.execute({ sql: 'SELECT count(*) AS n FROM audit_log WHERE at < ?', args: [Date.now() - RETENTION_MS - 1000] });
  expect(Number(left.rows[0]!.n)).toBe(0);

  // New rows chain on; the log verifies from the anchor.
  await admin.json('PUT', '/api/contact-info', { contactPhone: '0116 496 0001' });
  const r = await verify(server.databaseUrl);
  expect(r.code, r.out).toBe(0);
  const rows = await admin.json('GET', '/api/audit?kind=audit.pruned&limit=1');
  expect(rows.body.rows[0]).toMatchObject({ actorType: 'system', actorName: 'Retention' });
  expect(JSON.parse(rows.body.rows[0].detail)).toMatchObject({ anchorId: expect.any(Number), anchorHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
}, 60_000);
