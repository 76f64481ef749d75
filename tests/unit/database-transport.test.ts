// A server database is spoken to over one WebSocket, whatever the URL's scheme (issue 44):
// over HTTP each statement was its own request, 3-4 times slower on loopback.
import { afterAll, beforeAll, expect, test } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, webSocketUrl } from '../../src/db/connect.ts';
import { startSqld, type SqldProcess } from '../helpers/sqld.ts';

test.each([
  ['http://127.0.0.1:8080', 'ws://127.0.0.1:8080'],
  ['https://db.example.com', 'wss://db.example.com'],
  ['HTTP://10.0.0.10:8080/', 'ws://10.0.0.10:8080/'],
  ['libsql://db.example.com', 'wss://db.example.com'],
  ['libsql://127.0.0.1:8080?tls=0', 'ws://127.0.0.1:8080?tls=0'],
  ['libsql://db.example.com?authToken=x&tls=1', 'wss://db.example.com?authToken=x&tls=1'],
  ['ws://127.0.0.1:8080', 'ws://127.0.0.1:8080'],
  ['wss://db.example.com', 'wss://db.example.com'],
  ['file:./data/studio.db', 'file:./data/studio.db'],
])('%s is reached at %s', (url, expected) => {
  expect(webSocketUrl(url)).toBe(expected);
});

let sqld: SqldProcess;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-transport-'));
  sqld = await startSqld({ dir });
});
afterAll(async () => {
  await sqld?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an http: DATABASE_URL runs its statements and transactions over the WebSocket', async () => {
  expect(sqld.url).toMatch(/^http:/);
  const client = connect({ url: sqld.url });
  try {
    expect(client.protocol).toBe('ws');
    await client.execute('CREATE TABLE t (x INTEGER)');
    const tx = await client.transaction('write');
    await tx.execute({ sql: 'INSERT INTO t VALUES (?)', args: [7] });
    await tx.commit();
    expect((await client.execute('SELECT x FROM t')).rows.map((r) => Number(r.x))).toEqual([7]);
  } finally {
    client.close();
  }
});

test('a server that restarts is reached again on the next statement', async () => {
  const client = connect({ url: sqld.url });
  try {
    await client.execute('CREATE TABLE IF NOT EXISTS u (x INTEGER)');
    await sqld.stop();
    sqld = await startSqld({ dir, httpPort: sqld.httpPort, grpcPort: sqld.grpcPort ?? undefined });
    // The first statement may meet the dropped socket (an outage, answered 503 by the app);
    // the client opens a new one for the next.
    await client.execute('SELECT 1').catch(() => {});
    await client.execute({ sql: 'INSERT INTO u VALUES (?)', args: [1] });
    expect(Number((await client.execute('SELECT count(*) AS n FROM u')).rows[0]!.n)).toBe(1);
  } finally {
    client.close();
  }
});
