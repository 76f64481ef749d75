// On a libSQL server, statements and transactions run on streams (server connections) kept
// open and reused, so sqld parses the schema once per stream, not once per statement
// (src/db/stream-pool.ts). A reused stream must never carry a transaction, or an error, into
// the next caller's work; and its errors must read as @libsql/client's own do. A read replica's
// client does not keep streams (a replica starting over replaces its database under them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { connect, webSocketUrl } from '../../src/db/connect.ts';
import { replicaConnection } from '../../src/db/client.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import { startSqld, type SqldProcess } from '../helpers/sqld.ts';
import { until } from '../helpers/until.ts';

let dir: string;
let sqld: SqldProcess;
let client: Client;
/** Another process's client: sees only what was committed. */
let other: Client;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqld-streams-'));
  sqld = await startSqld({ dir });
  other = createClient({ url: webSocketUrl(sqld.url) });
  await other.execute('CREATE TABLE said (n INTEGER PRIMARY KEY)');
});
afterAll(async () => {
  other?.close();
  await sqld?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  client = connect({ url: sqld.url });
  await other.execute('DELETE FROM said');
});
afterEach(() => client.close());

const rows = async () => (await other.execute('SELECT n FROM said ORDER BY n')).rows.map((r) => Number(r.n));

test("one statement after another runs on the same server connection (the connection's change count grows)", async () => {
  // total_changes() counts the rows written on this connection since it opened.
  await client.execute({ sql: 'INSERT INTO said VALUES (?)', args: [7] });
  await client.execute({ sql: 'INSERT INTO said VALUES (?)', args: [8] });
  expect((await client.execute('SELECT total_changes() AS n')).rows[0]!.n).toBe(2);
  // ...and a transaction takes that connection too, and gives it back.
  const tx = await client.transaction('write');
  await tx.execute('INSERT INTO said VALUES (9)');
  expect((await tx.execute('SELECT total_changes() AS n')).rows[0]!.n).toBe(3);
  await tx.commit();
  expect((await client.execute('SELECT total_changes() AS n')).rows[0]!.n).toBe(3);
  expect(await rows()).toEqual([7, 8, 9]);
});

test.each([
  ['committed', async (tx: Awaited<ReturnType<Client['transaction']>>) => tx.commit(), [1]],
  ['rolled back', async (tx: Awaited<ReturnType<Client['transaction']>>) => tx.rollback(), []],
  ['closed without either', async (tx: Awaited<ReturnType<Client['transaction']>>) => tx.close(), []],
] as const)('a transaction %s leaves the next statement in autocommit, holding no lock', async (_name, end, expected) => {
  const tx = await client.transaction('write');
  await tx.execute('INSERT INTO said VALUES (1)');
  await end(tx);
  expect(tx.closed).toBe(true);
  // The next statement on this client is its own transaction: another process sees it at once...
  await client.execute('INSERT INTO said VALUES (2)');
  expect(await rows()).toEqual([...expected, 2]);
  // ...and can write: no lock is left held by a stream in the pool.
  await other.execute('INSERT INTO said VALUES (3)');
  expect(await rows()).toEqual([...expected, 2, 3]);
});

test('a statement in a finished transaction is refused, as @libsql/client refuses it', async () => {
  const tx = await client.transaction('write');
  await tx.commit();
  await expect(tx.execute('SELECT 1')).rejects.toMatchObject({ code: 'TRANSACTION_CLOSED' });
  await expect(tx.commit()).rejects.toMatchObject({ code: 'TRANSACTION_CLOSED' });
});

test("a failing statement's error has @libsql/client's code, and the next statement runs", async () => {
  const plain = createClient({ url: webSocketUrl(sqld.url) });
  try {
    await client.execute('INSERT INTO said VALUES (5)');
    const theirs = await plain.execute('INSERT INTO said VALUES (5)').catch((e: unknown) => e);
    const ours = await client.execute('INSERT INTO said VALUES (5)').catch((e: unknown) => e);
    expect(theirs).toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
    expect(ours).toMatchObject({ code: (theirs as { code: string }).code, message: (theirs as Error).message });
    expect((await client.execute('SELECT count(*) AS n FROM said')).rows[0]!.n).toBe(1);
  } finally {
    plain.close();
  }
});

test('a restarted server: the lost connection reads as unavailable, and the client connects again', async () => {
  const own = fs.mkdtempSync(path.join(os.tmpdir(), 'sqld-streams-restart-'));
  let server = await startSqld({ dir: own });
  const c = connect({ url: server.url });
  try {
    await c.execute('CREATE TABLE kept (n INTEGER)');
    await c.execute('INSERT INTO kept VALUES (1)');
    const { httpPort } = server;
    await server.stop();
    const during = await c.execute('SELECT count(*) FROM kept').catch((e: unknown) => e);
    expect(isDatabaseUnavailable(during)).toBe(true);
    server = await startSqld({ dir: own, httpPort });
    // The pooled streams died with the old server; the first statement after may still find one.
    let n: unknown;
    for (let i = 0; i < 3 && n === undefined; i++) n = (await c.execute('SELECT count(*) AS n FROM kept').catch(() => undefined))?.rows[0]?.n;
    expect(n).toBe(1);
  } finally {
    c.close();
    await server.stop();
    fs.rmSync(own, { recursive: true, force: true });
  }
});

test("a replica's client takes a new stream each time: after the primary restarts, what the replica took over is read", async () => {
  const own = fs.mkdtempSync(path.join(os.tmpdir(), 'sqld-streams-replica-'));
  let primary = await startSqld({ dir: path.join(own, 'primary') });
  const replica = await startSqld({ dir: path.join(own, 'replica'), primaryGrpcUrl: primary.grpcUrl! });
  // As the app reads its replica (DATABASE_REPLICA_URL).
  const reader = replicaConnection(replica.url);
  const writer = () => connect({ url: primary.url });
  let w = writer();
  // A read may fail while the replica starts over; a kept stream would answer its old database.
  const onReplica = async () => Number((await reader.execute('SELECT count(*) AS n FROM kept')).rows[0]!.n);
  try {
    await w.execute('CREATE TABLE kept (n INTEGER)');
    await w.execute('INSERT INTO kept VALUES (1)');
    // (Until the table reaches the replica, reading it fails.)
    await until('the replica has the first row', async () => (await onReplica().catch(() => 0)) === 1, 20_000);
    // The primary restarts: the replica starts over from it and replaces its database.
    const { httpPort, grpcPort } = primary;
    w.close();
    await primary.stop();
    primary = await startSqld({ dir: path.join(own, 'primary'), httpPort, grpcPort: grpcPort! });
    w = writer();
    await w.execute('INSERT INTO kept VALUES (2)');
    await until('the replica has the row written after the restart', async () => (await onReplica().catch(() => -1)) === 2, 20_000);
  } finally {
    reader.close();
    w.close();
    await replica.stop();
    await primary.stop();
    fs.rmSync(own, { recursive: true, force: true });
  }
});
