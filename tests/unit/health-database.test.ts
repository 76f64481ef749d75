// The database part of GET /api/health (issue 43): a process whose database stops answering
// reports it as the failing part, without the worker part piling on. A running server's
// connection cannot be cut from outside, so this runs the health check in this process, on its
// own database, and closes the connection under it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-health-'));
process.env.DATABASE_URL = `file:${path.join(dir, 'studio.db')}`;
process.env.MEDIA_DIR = path.join(dir, 'media');
process.env.MIN_FREE_BYTES = '0';

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a database that does not answer is named, and only it', async () => {
  const { db, client } = await import('../../src/db/index.ts');
  const { applyMigrations } = await import('../../src/db/migrate.ts');
  const { checkHealth } = await import('../../src/server/health.ts');
  await applyMigrations(db);
  await client.execute({ sql: 'INSERT INTO worker_heartbeats (owner, seen_at, ffmpeg) VALUES (?, ?, 1)', args: ['w', Date.now()] });

  const before = await checkHealth();
  expect(before.database.ok).toBe(true);
  expect(before.worker.ok).toBe(true);

  client.close();
  const after = await checkHealth();
  expect(after.ok).toBe(false);
  expect(after.database.ok).toBe(false);
  expect(after.problems).toEqual(['the database could not be read']);
});
