// Upgrading a library from before version stacks (issue 16): migrations 0010 and 0011 turn every
// item into v1 with its feedback and notes on it, and nothing is lost. The database is built
// with the real migrations up to 0009, filled, then the app is started on it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { clientSession, staffSession } from '../helpers/http.ts';
import { sampleVideo } from '../helpers/portal-fixtures.ts';
import { migrationsBefore } from '../helpers/migrations.ts';

const BEFORE = '0010_media_versions';

let server: TestServer;
let dir: string;
const items: { id: number; key: string; feedback: number; notes: number }[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-upgrade-'));
  const c = createClient({ url: `file:${path.join(dir, 'studio.db')}` });
  await migrate(drizzle(c), { migrationsFolder: migrationsBefore(BEFORE) });
  const client = await c.execute("INSERT INTO clients (name, email) VALUES ('Old Client', 'old@clients.test') RETURNING id");
  const clientId = Number(client.rows[0]!.id);
  const { hashPassword } = await import('../../src/server/auth/password.ts');
  const cu = await c.execute({
    sql: "INSERT INTO client_users (client_id, username, email, password_hash) VALUES (?, 'old.client', 'login@old.test', ?) RETURNING id",
    args: [clientId, await hashPassword('client-pass-123')],
  });
  const cuId = Number(cu.rows[0]!.id);
  for (const [n, feedback, notes] of [
    [1, 2, 3],
    [2, 0, 1],
    [3, 1, 0],
  ] as const) {
    const key = `${'a'.repeat(31)}${n}`;
    fs.mkdirSync(path.join(dir, 'media', key), { recursive: true });
    fs.copyFileSync(sampleVideo(), path.join(dir, 'media', key, 'original.mp4'));
    const m = await c.execute({
      sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, client_id, duration_seconds, processing_status, processing_progress)
            VALUES (?, 'video', ?, ?, 'old.mp4', 1000, 'video/mp4', ?, 3, 'failed', 0) RETURNING id`,
      args: [`Old film ${n}`, key, `/media/${key}/original.mp4`, clientId],
    });
    const id = Number(m.rows[0]!.id);
    for (let i = 0; i < feedback; i++) await c.execute({ sql: 'INSERT INTO client_feedback (media_id, client_user_id, feedback_text, rating) VALUES (?, ?, ?, 4)', args: [id, cuId, `fb ${i}`] });
    for (let i = 0; i < notes; i++) await c.execute({ sql: 'INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, note_text) VALUES (?, ?, ?, ?)', args: [id, cuId, i, `note ${i}`] });
    items.push({ id, key, feedback, notes });
  }
  c.close();
  server = await startServer({ dir, env: { WORKER: 'off' } });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('every existing item becomes v1 with the same files and the same feedback and note counts', async () => {
  const admin = await staffSession(server.url, 'admin', 'admin-password-123');
  const list = (await admin.json('GET', '/api/media')).body as any[];
  for (const it of items) {
    const m = list.find((x) => x.id === it.id);
    expect(m).toMatchObject({ version: 1, versionCount: 1, approvalStatus: 'in_review', feedbackCount: it.feedback, noteCount: it.notes, url: `/media/${it.key}/original.mp4` });
    const versions = (await admin.json('GET', `/api/media/${it.id}/versions`)).body;
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ number: 1, current: true, url: `/media/${it.key}/original.mp4`, feedbackCount: it.feedback, noteCount: it.notes, processingStatus: 'failed' });
  }
  const rows = await server.sql.execute('SELECT count(*) AS n FROM client_feedback WHERE version_id IS NULL');
  expect(Number(rows.rows[0]!.n)).toBe(0);
  const notes = await server.sql.execute('SELECT count(*) AS n FROM timeline_notes WHERE version_id IS NULL');
  expect(Number(notes.rows[0]!.n)).toBe(0);
  // The client still sees everything they wrote, now on v1.
  const client = await clientSession(server.url, 'old.client', 'client-pass-123');
  const own = (await client.json('GET', '/api/client/media/feedback')).body as any[];
  expect(own).toHaveLength(3);
  expect(new Set(own.map((f) => f.versionNumber))).toEqual(new Set([1]));
});
