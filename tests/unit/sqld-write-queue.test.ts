// On a libSQL server a process's write transactions wait their turn in the process, one at a
// time, not in sqld's busy handler (src/db/client.ts, `patient`; docs/database.md). Waiting in
// sqld, a second writer made sqld roll back a first one that held the lock over 5 s (its
// TRANSACTION_TIMEOUT), though it was only slow (a busy machine), not stuck.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { startSqld, type SqldProcess } from '../helpers/sqld.ts';

/** Longer than sqld lets a transaction hold the write lock while another writer waits there. */
const HOLD_MS = 6000;

let dir: string;
let sqld: SqldProcess;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqld-queue-'));
  sqld = await startSqld({ dir });
});
afterAll(async () => {
  await sqld?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('a second write transaction waits for the first to commit, though the first holds the lock over 5 s', { timeout: 30_000 }, async () => {
  const { db, client } = await openDatabase(sqld.url);
  try {
    await client.execute('CREATE TABLE said (n INTEGER)');
    const order: string[] = [];
    let wrote!: () => void;
    const holding = new Promise<void>((resolve) => (wrote = resolve));
    const first = db.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO said VALUES (1)`);
      order.push('first wrote');
      wrote();
      // Slow, not stuck: a holder on a busy machine.
      await new Promise((r) => setTimeout(r, HOLD_MS));
      order.push('first commits');
    });
    await holding;
    const second = db.transaction(async (tx) => {
      order.push('second began');
      await tx.run(sql`INSERT INTO said VALUES (2)`);
    });
    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(order).toEqual(['first wrote', 'first commits', 'second began']);
    expect((await client.execute('SELECT n FROM said ORDER BY rowid')).rows.map((r) => Number(r.n))).toEqual([1, 2]);
  } finally {
    client.close();
  }
});
