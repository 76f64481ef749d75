// The audit writer's head guess (issue 56's write budget): a row is written in one statement on
// the head this process last saw, checked in the insert itself. These are the cases where that
// guess is wrong, on a real migrated database: each must still give one whole chain.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import type { Client } from '@libsql/client';
import { applyMigrations } from '../../src/db/migrate.ts';
import { audit, auditIn, systemOrigin } from '../../src/server/audit/record.ts';
import { rowHash } from '../../src/server/audit/chain.ts';
import { verifyAudit } from '../helpers/audit.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-audit-writer-'));
const url = `file:${path.join(dir, 'studio.db')}`;
let db: Database;
let client: Client;
const origin = systemOrigin('Writer test');

beforeAll(async () => {
  ({ db, client } = await openDatabase(url));
  await applyMigrations(db);
});
afterAll(() => {
  client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const head = async () => {
  const r = (await client.execute('SELECT head_id, head_hash FROM audit_state WHERE id = 1')).rows[0]!;
  return { id: Number(r.head_id), hash: String(r.head_hash) };
};

async function expectWholeChain() {
  const r = await verifyAudit(url);
  expect(r.code, r.out).toBe(0);
}

test('a row moves the head in the same statement', async () => {
  const before = await head();
  const id = await audit(db, origin, { kind: 'settings.changed', object: { type: 'settings', id: 'contact' } });
  expect(id).toBe(before.id + 1);
  const row = (await client.execute({ sql: 'SELECT prev_hash, hash FROM audit_log WHERE id = ?', args: [id] })).rows[0]!;
  expect(row.prev_hash).toBe(before.hash);
  expect(await head()).toEqual({ id, hash: String(row.hash) });
  await expectWholeChain();
});

test('a transaction rolled back after its row: the next row takes that row’s place', async () => {
  const before = await head();
  const failed = db.transaction(async (tx) => {
    await auditIn(tx, origin, { kind: 'settings.changed', object: { type: 'settings', id: 'rolled back' } });
    throw new Error('the change failed after its row');
  });
  await expect(failed).rejects.toThrow('the change failed after its row');
  expect(await head()).toEqual(before);
  const id = await audit(db, origin, { kind: 'settings.changed', object: { type: 'settings', id: 'after the rollback' } });
  expect(id).toBe(before.id + 1);
  expect(Number((await client.execute("SELECT count(*) AS n FROM audit_log WHERE object_id = 'rolled back'")).rows[0]!.n)).toBe(0);
  await expectWholeChain();
});

test('another process writing meanwhile: the next row follows its row, inside a transaction and alone', async () => {
  for (const write of [
    (kind: 'settings.changed') => db.transaction((tx) => auditIn(tx, origin, { kind })),
    (kind: 'settings.changed') => audit(db, origin, { kind }),
  ]) {
    // The other process: its own connection, its own row after the head, as its writer would.
    const other = await openDatabase(url);
    try {
      const h = (await other.client.execute('SELECT head_id, head_hash, head_at FROM audit_state WHERE id = 1')).rows[0]!;
      const f = { id: Number(h.head_id) + 1, at: Math.max(Date.now(), Number(h.head_at)), actorType: 'system', actorKey: 'system', actorName: 'Other process', ip: null, agent: '', kind: 'settings.changed', objectType: null, objectId: null, objectName: '', factor: null, detail: '' };
      await other.client.execute({
        sql: 'INSERT INTO audit_log (id, at, actor_type, actor_key, actor_name, ip, agent, kind, object_type, object_id, object_name, factor, detail, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        args: [f.id, f.at, f.actorType, f.actorKey, f.actorName, f.ip, f.agent, f.kind, f.objectType, f.objectId, f.objectName, f.factor, f.detail, String(h.head_hash), rowHash(String(h.head_hash), f)],
      });
      expect((await head()).id).toBe(f.id);
      expect(await write('settings.changed')).toBe(f.id + 1);
    } finally {
      other.client.close();
    }
  }
  await expectWholeChain();
});

test('a row put back in the middle or at the head leaves the head where it is', async () => {
  for (let i = 0; i < 3; i++) await audit(db, origin, { kind: 'settings.changed' });
  const at = await head();
  for (const id of [1, at.id]) {
    const saved = (await client.execute({ sql: 'SELECT * FROM audit_log WHERE id = ?', args: [id] })).rows[0]!;
    const cols = Object.keys(saved).filter((k) => Number.isNaN(Number(k)));
    await client.execute({ sql: 'DELETE FROM audit_log WHERE id = ?', args: [id] });
    await client.execute({ sql: `INSERT INTO audit_log (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, args: cols.map((c) => saved[c] as never) });
    expect(await head()).toEqual(at);
  }
  expect(await audit(db, origin, { kind: 'settings.changed' })).toBe(at.id + 1);
  await expectWholeChain();
});
