// Upgrading a library from before exact note times (issue 29): migration 0017 rebuilds
// timeline_notes and media_replies and adds columns to share_comments. Every existing note keeps
// its whole seconds and gets them × 1000 as its exact time; replies, resolution and the
// timeline_notes triggers survive. The database is built with the real migrations up to 0016,
// filled, then the app is started on it.
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

const BEFORE = '0017_note_times';

let server: TestServer;
let dir: string;
let mediaId = 0;
let versionId = 0;
const notes: { id: number; seconds: number; text: string }[] = [];
let guestNoteId = 0;
let guestFeedbackId = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-notes-upgrade-'));
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
  const key = 'b'.repeat(32);
  fs.mkdirSync(path.join(dir, 'media', key), { recursive: true });
  fs.copyFileSync(sampleVideo(), path.join(dir, 'media', key, 'original.mp4'));
  const m = await c.execute({
    sql: `INSERT INTO media (title, type, storage_key, url, filename, file_size, mime_type, client_id, duration_seconds, processing_status, processing_progress)
          VALUES ('Old film', 'video', ?, ?, 'old.mp4', 1000, 'video/mp4', ?, 60, 'failed', 0) RETURNING id`,
    args: [key, `/media/${key}/original.mp4`, clientId],
  });
  mediaId = Number(m.rows[0]!.id);
  versionId = Number((await c.execute({ sql: 'SELECT id FROM media_versions WHERE media_id = ?', args: [mediaId] })).rows[0]!.id);
  for (const [seconds, text] of [
    [0, 'at the start'],
    [3, 'logo'],
    [59, 'last second'],
  ] as const) {
    const r = await c.execute({ sql: 'INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, note_text) VALUES (?, ?, ?, ?) RETURNING id', args: [mediaId, cuId, seconds, text] });
    notes.push({ id: Number(r.rows[0]!.id), seconds, text });
  }
  await c.execute({ sql: "INSERT INTO media_replies (timeline_note_id, author_name, by_staff, reply_text) VALUES (?, 'Studio', 1, 'Fixed')", args: [notes[1]!.id] });
  await c.execute({ sql: 'UPDATE timeline_notes SET resolved_at = 1700000000000 WHERE id = ?', args: [notes[1]!.id] });
  const link = await c.execute("INSERT INTO share_links (token_hash, name, allow_comment) VALUES ('x', 'Old link', 1) RETURNING id");
  const linkId = Number(link.rows[0]!.id);
  guestNoteId = Number(
    (await c.execute({ sql: "INSERT INTO share_comments (link_id, media_id, version_id, guest_name, kind, timestamp_seconds, text) VALUES (?, ?, ?, 'Sam', 'note', 7, 'guest note') RETURNING id", args: [linkId, mediaId, versionId] })).rows[0]!.id,
  );
  guestFeedbackId = Number(
    (await c.execute({ sql: "INSERT INTO share_comments (link_id, media_id, version_id, guest_name, kind, rating, text) VALUES (?, ?, ?, 'Sam', 'feedback', 5, 'guest fb') RETURNING id", args: [linkId, mediaId, versionId] })).rows[0]!.id,
  );
  c.close();
  server = await startServer({ dir, env: { WORKER: 'off' } });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('existing notes keep their whole seconds, replies and resolution, and get seconds × 1000', async () => {
  const rows = (await server.sql.execute({ sql: 'SELECT id, timestamp_seconds, timestamp_ms, note_text, client_user_id, by_staff, internal, resolved_at FROM timeline_notes ORDER BY id' })).rows;
  expect(rows.map((r) => [Number(r.id), r.timestamp_seconds, r.timestamp_ms, r.note_text, r.by_staff, r.internal])).toEqual(
    notes.map((n) => [n.id, n.seconds, n.seconds * 1000, n.text, 0, 0]),
  );
  expect(rows[1]!.resolved_at).toBe(1700000000000);

  const admin = await staffSession(server.url, 'admin', 'admin-password-123');
  const list = (await admin.json('GET', `/api/admin/media/timeline-notes?mediaId=${mediaId}`)).body as any[];
  const own = list.filter((n) => n.source === 'client');
  expect(own.map((n) => [n.id, n.timestampSeconds, n.timestampMs, n.noteText, n.clientUsername])).toEqual(notes.map((n) => [n.id, n.seconds, n.seconds * 1000, n.text, 'old.client']));
  expect(own[1]).toMatchObject({ resolvedAt: expect.any(String), replies: [expect.objectContaining({ text: 'Fixed', by: 'staff' })], shapes: [], endMs: null });
  expect(list.find((n) => n.source === 'link')).toMatchObject({ id: guestNoteId, timestampSeconds: 7, timestampMs: 7000, guestName: 'Sam', resolvedAt: null });
  const sc = (await server.sql.execute({ sql: 'SELECT id, timestamp_ms FROM share_comments ORDER BY id' })).rows;
  expect(sc.map((r) => [Number(r.id), r.timestamp_ms])).toEqual([
    [guestNoteId, 7000],
    [guestFeedbackId, null],
  ]);

  const portal = await clientSession(server.url, 'old.client', 'client-pass-123');
  const mine = (await portal.json('GET', '/api/client/media/timeline-notes')).body as any[];
  expect(mine.map((n) => [n.timestampSeconds, n.timestampMs])).toEqual(notes.map((n) => [n.seconds, n.seconds * 1000]));
});

test('the timeline_notes triggers work after the rebuild: a note without a version lands on the current one, and the list cache moves', async () => {
  const before = Number((await server.sql.execute('SELECT version FROM library_state WHERE id = 1')).rows[0]!.version);
  const r = await server.sql.execute({ sql: "INSERT INTO timeline_notes (media_id, client_user_id, timestamp_seconds, note_text) SELECT ?, id, 5, 'by hand' FROM client_users RETURNING id", args: [mediaId] });
  const id = Number(r.rows[0]!.id);
  expect((await server.sql.execute({ sql: 'SELECT version_id FROM timeline_notes WHERE id = ?', args: [id] })).rows[0]!.version_id).toBe(versionId);
  expect(Number((await server.sql.execute('SELECT version FROM library_state WHERE id = 1')).rows[0]!.version)).toBeGreaterThan(before);
  // A note written without timestamp_ms is read as its seconds × 1000.
  const admin = await staffSession(server.url, 'admin', 'admin-password-123');
  const list = (await admin.json('GET', `/api/admin/media/timeline-notes?mediaId=${mediaId}`)).body as any[];
  expect(list.find((n) => n.id === id && n.source === 'client')).toMatchObject({ timestampSeconds: 5, timestampMs: 5000 });
  // A note needs an author: a client, or staff.
  await expect(server.sql.execute({ sql: "INSERT INTO timeline_notes (media_id, timestamp_seconds, note_text) VALUES (?, 1, 'nobody')", args: [mediaId] })).rejects.toThrow(/CHECK/);
  // A reply needs exactly one parent.
  await expect(server.sql.execute({ sql: "INSERT INTO media_replies (timeline_note_id, share_comment_id, author_name, reply_text) VALUES (?, ?, 'x', 'y')", args: [id, guestNoteId] })).rejects.toThrow(/CHECK/);
});
