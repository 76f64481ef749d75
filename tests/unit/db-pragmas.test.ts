// The embedded client must keep foreign keys and the busy timeout on every statement,
// including after transactions (which borrow a connection in @libsql/client).
import { afterEach, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { clients, clientUsers, roles, userRoles, users } from '../../src/db/schema.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function fresh() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-db-'));
  dirs.push(dir);
  const url = `file:${path.join(dir, 'test.db')}`;
  const opened = await openDatabase(url);
  await applyMigrations(opened.db);
  return { ...opened, url };
}

describe('embedded database connection', () => {
  test('foreign keys and busy timeout are set after a transaction has run', async () => {
    const { db, client } = await fresh();
    await db.transaction(async (tx) => {
      await tx.insert(roles).values({ name: 'Tmp' });
    });
    await db.transaction(async (tx) => {
      await tx.insert(roles).values({ name: 'Tmp2' });
    });
    const fk = await client.execute('PRAGMA foreign_keys');
    const bt = await client.execute('PRAGMA busy_timeout');
    const jm = await client.execute('PRAGMA journal_mode');
    expect(Number(Object.values(fk.rows[0]!)[0])).toBe(1);
    expect(Number(Object.values(bt.rows[0]!)[0])).toBe(5000);
    expect(String(Object.values(jm.rows[0]!)[0])).toBe('wal');
    client.close();
  });

  test('cascades still delete children after a transaction', async () => {
    const { db, client } = await fresh();
    const clientId = await db.transaction(async (tx) => {
      const [c] = await tx.insert(clients).values({ name: 'A', email: 'a@x.test' }).returning({ id: clients.id });
      await tx.insert(clientUsers).values({ clientId: c!.id, username: 'a', email: 'a@x.test', passwordHash: 'x' });
      return c!.id;
    });
    const [u] = await db.insert(users).values({ username: 'u', email: 'u@x.test', passwordHash: 'x' }).returning({ id: users.id });
    const [r] = await db.insert(roles).values({ name: 'R' }).returning({ id: roles.id });
    await db.insert(userRoles).values({ userId: u!.id, roleId: r!.id });

    await db.delete(clients).where(eq(clients.id, clientId));
    await db.delete(roles).where(eq(roles.id, r!.id));
    expect(await db.select().from(clientUsers)).toHaveLength(0);
    expect(await db.select().from(userRoles)).toHaveLength(0);
    client.close();
  });

  test('a rejected foreign key leaves nothing behind in a failed transaction', async () => {
    const { db, client } = await fresh();
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(clients).values({ name: 'B', email: 'b@x.test' });
        await tx.insert(clientUsers).values({ clientId: 999, username: 'b', email: 'b@x.test', passwordHash: 'x' });
      }),
    ).rejects.toThrow();
    expect(await db.select().from(clients)).toHaveLength(0);
    // The client is still usable afterwards (the lock was released).
    await db.insert(roles).values({ name: 'after' });
    expect((await db.select().from(roles)).map((r) => r.name)).toContain('after');
    client.close();
  });

  test("a write waits for another process's lock instead of failing (busy timeout)", async () => {
    const { db, client, url } = await fresh();
    await db.transaction(async (tx) => {
      await tx.insert(roles).values({ name: 'warm-up' });
    });
    // Another process takes the write lock and holds it for 500 ms.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createClient } from '@libsql/client';
         const c = createClient({ url: ${JSON.stringify(url)} });
         const tx = await c.transaction('write');
         await tx.execute("INSERT INTO roles (name) VALUES ('held')");
         console.log('locked');
         await new Promise((r) => setTimeout(r, 500));
         await tx.commit();
         c.close();`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const started = Date.now();
    await db.insert(roles).values({ name: 'waited' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await new Promise((r) => holder.once('exit', r));
    const names = (await db.select().from(roles)).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['held', 'waited']));
    client.close();
  });

  test('concurrent callers queue behind an open transaction instead of failing', async () => {
    const { db, client } = await fresh();
    const order: string[] = [];
    const t = db.transaction(async (tx) => {
      await tx.insert(roles).values({ name: 'in-tx' });
      await new Promise((r) => setTimeout(r, 100));
      order.push('tx');
    });
    const q = db.select().from(roles).then((rows) => {
      order.push('read');
      return rows;
    });
    const [, rows] = await Promise.all([t, q]);
    expect(order).toEqual(['tx', 'read']);
    expect(rows.map((r) => r.name)).toContain('in-tx');
    client.close();
  });
});
