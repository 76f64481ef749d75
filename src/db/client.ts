// One database client for the process. For an embedded file we keep a single connection
// and serialise access to it, because:
//  - per-connection pragmas (foreign_keys, busy_timeout) must hold on every statement, and
//    @libsql/client opens fresh connections (without them) when a transaction holds one;
//  - SQLite runs statements synchronously anyway, so a pool buys nothing but that risk.
// Inside `db.transaction(async (tx) => ...)` use `tx` only: the global `db` waits for the
// transaction to finish and would deadlock.
import { createClient, type Client, type InStatement, type Transaction, type TransactionMode } from '@libsql/client';
import { connect } from './connect.ts';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import fs from 'node:fs';
import path from 'node:path';
import * as schema from './schema.ts';
import { readsMayUseReplica, readsOnly, wrote } from './read-routing.ts';
import { isDatabaseBusy, isDatabaseUnavailable } from './unavailable.ts';

const BUSY_TIMEOUT_MS = 5000;
const PRAGMAS = [`PRAGMA foreign_keys = ON`, `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`];

export function isEmbedded(url: string): boolean {
  return url.startsWith('file:') || url === ':memory:';
}

function ensureDirFor(url: string) {
  if (!url.startsWith('file:')) return;
  const file = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
  if (file && file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
}

/** A FIFO lock: each holder runs alone. */
class Lock {
  #tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return ready;
  }
}

/** `tx`, calling `finish` once when it is committed, rolled back or closed. */
function whenDone(tx: Transaction, finish: () => Promise<void> | void): Transaction {
  let done = false;
  const end = async () => {
    if (done) return;
    done = true;
    await finish();
  };
  return {
    execute: (stmt: InStatement) => tx.execute(stmt),
    batch: (stmts: InStatement[]) => tx.batch(stmts),
    executeMultiple: (sql: string) => tx.executeMultiple(sql),
    rollback: async () => {
      try {
        await tx.rollback();
      } finally {
        await end();
      }
    },
    commit: async () => {
      try {
        await tx.commit();
      } finally {
        await end();
      }
    },
    close: () => {
      tx.close();
      void end();
    },
    get closed() {
      return tx.closed;
    },
  } as Transaction;
}

/** Wraps an embedded client so every statement runs on a connection with our pragmas. */
function serialised(inner: Client): Client {
  const lock = new Lock();
  const applyPragmas = async () => {
    for (const p of PRAGMAS) await inner.execute(p);
  };
  const run = async <T>(fn: () => Promise<T>): Promise<T> => {
    const release = await lock.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  };
  const wrapTx = (tx: Transaction, release: () => void) =>
    whenDone(tx, async () => {
      // A transaction may hand back a different connection; re-assert the pragmas.
      try {
        await applyPragmas();
      } finally {
        release();
      }
    });
  const wrapper = {
    execute: ((stmt: InStatement, args?: unknown) =>
      run(() => (inner.execute as (a: unknown, b?: unknown) => Promise<unknown>)(stmt, args))) as Client['execute'],
    batch: ((stmts: InStatement[], mode?: TransactionMode) => run(() => inner.batch(stmts, mode))) as Client['batch'],
    migrate: ((stmts: InStatement[]) =>
      run(async () => {
        const r = await inner.migrate(stmts);
        await applyPragmas();
        return r;
      })) as Client['migrate'],
    transaction: async (mode?: TransactionMode) => {
      const release = await lock.acquire();
      try {
        const tx = await inner.transaction(mode ?? 'write');
        return wrapTx(tx, release);
      } catch (e) {
        release();
        throw e;
      }
    },
    executeMultiple: (sql: string) => run(() => inner.executeMultiple(sql)),
    sync: () => inner.sync(),
    close: () => inner.close(),
    reconnect: () => inner.reconnect(),
    get closed() {
      return inner.closed;
    },
    get protocol() {
      return inner.protocol;
    },
  };
  return wrapper as unknown as Client;
}

/**
 * A server database (sqld) makes a writer wait for the lock about 5 s, then answers
 * SQLITE_BUSY: under many writers, whose transactions each take several round trips, that
 * can come before their turn. A statement refused so did not run, so it is sent again, for up
 * to another BUSY_TIMEOUT_MS; a transaction's lock is taken at once (its BEGIN goes out with a
 * first statement) so that it is refused, and retried, before any of its work.
 *
 * The server runs one write transaction at a time, so this process's own write transactions
 * queue here, one at a time, instead of each holding a stream open on the server while sqld's
 * busy handler polls for the lock: waiting in sqld left the lock idle between holders (polling
 * sleeps) and let a holder that was slow under load be rolled back for a waiter (issue 44).
 * Writes outside a transaction (one statement, one round trip) are not queued.
 */
function patient(inner: Client): Client {
  const writers = new Lock();
  const retry = async <T>(fn: () => Promise<T>): Promise<T> => {
    const end = Date.now() + BUSY_TIMEOUT_MS;
    for (let wait = 10; ; wait = Math.min(wait * 2, 250)) {
      try {
        return await fn();
      } catch (e) {
        if (!isDatabaseBusy(e) || Date.now() + wait > end) throw e;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  };
  const wrapper = {
    execute: ((stmt: InStatement, args?: unknown) => retry(() => (inner.execute as (a: unknown, b?: unknown) => Promise<unknown>)(stmt, args))) as Client['execute'],
    batch: ((stmts: InStatement[], mode?: TransactionMode) => retry(() => inner.batch(stmts, mode))) as Client['batch'],
    migrate: ((stmts: InStatement[]) => inner.migrate(stmts)) as Client['migrate'],
    transaction: async (mode?: TransactionMode) => {
      if (mode === 'read' || mode === 'deferred') return inner.transaction(mode);
      const release = await writers.acquire();
      try {
        const tx = await retry(async () => {
          const t = await inner.transaction(mode);
          try {
            await t.execute('SELECT 1');
            return t;
          } catch (e) {
            t.close();
            throw e;
          }
        });
        return whenDone(tx, release);
      } catch (e) {
        release();
        throw e;
      }
    },
    executeMultiple: (sql: string) => retry(() => inner.executeMultiple(sql)),
    sync: () => inner.sync(),
    close: () => inner.close(),
    reconnect: () => inner.reconnect(),
    get closed() {
      return inner.closed;
    },
    get protocol() {
      return inner.protocol;
    },
  };
  return wrapper as unknown as Client;
}

const isRead = (stmt: InStatement) => readsOnly(typeof stmt === 'string' ? stmt : stmt.sql);

/**
 * A server database with a read replica beside this process (DATABASE_REPLICA_URL): writes,
 * transactions and migrations go to the primary; reads go to the replica only where
 * read-routing.ts allows it, and to the primary when the replica cannot be reached.
 */
function routed(primary: Client, replica: Client): Client {
  const read = async <T>(onReplica: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> => {
    if (!readsMayUseReplica()) return onPrimary();
    try {
      return await onReplica();
    } catch (e) {
      if (isDatabaseUnavailable(e)) return onPrimary();
      throw e;
    }
  };
  const write = <T>(fn: () => Promise<T>): Promise<T> => {
    wrote();
    return fn();
  };
  const wrapper = {
    execute: ((stmt: InStatement, args?: unknown) => {
      const run = (c: Client) => (c.execute as (a: unknown, b?: unknown) => Promise<unknown>)(stmt, args);
      return isRead(stmt) ? read(() => run(replica), () => run(primary)) : write(() => run(primary));
    }) as Client['execute'],
    batch: ((stmts: InStatement[], mode?: TransactionMode) =>
      mode === 'read' ? read(() => replica.batch(stmts, mode), () => primary.batch(stmts, mode)) : write(() => primary.batch(stmts, mode))) as Client['batch'],
    migrate: ((stmts: InStatement[]) => write(() => primary.migrate(stmts))) as Client['migrate'],
    transaction: (mode?: TransactionMode) => (mode === 'read' ? read(() => replica.transaction(mode), () => primary.transaction(mode)) : write(() => primary.transaction(mode))),
    executeMultiple: (sql: string) => write(() => primary.executeMultiple(sql)),
    sync: () => primary.sync(),
    close: () => {
      primary.close();
      replica.close();
    },
    reconnect: async () => {
      await primary.reconnect();
      await replica.reconnect();
    },
    get closed() {
      return primary.closed;
    },
    get protocol() {
      return primary.protocol;
    },
  };
  return wrapper as unknown as Client;
}

export type Database = LibSQLDatabase<typeof schema> & { $client: Client };

/**
 * Runs `statement` again while the file is locked, for up to BUSY_TIMEOUT_MS: switching to WAL
 * answers SQLITE_BUSY at once, without the busy handler, while another process starting on
 * the same new file holds its lock (two processes started together; multi-process.test.ts).
 */
async function untilUnlocked<T>(statement: () => Promise<T>): Promise<T> {
  const end = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return await statement();
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * The client of a read replica: a stream per statement, not kept ones (connect.ts): a replica
 * that starts over from its restarted primary replaces its database under its connections.
 */
export function replicaConnection(url: string, authToken?: string): Client {
  return patient(connect({ url, authToken }, { reuseStreams: false }));
}

/** `replicaUrl`: a read replica of the server database `url` (DATABASE_REPLICA_URL). */
export async function openDatabase(url: string, authToken?: string, replicaUrl?: string): Promise<{ db: Database; client: Client }> {
  ensureDirFor(url);
  const embedded = isEmbedded(url);
  const raw = embedded ? createClient({ url, concurrency: 1, timeout: BUSY_TIMEOUT_MS }) : patient(connect({ url, authToken }));
  if (embedded) {
    // busy_timeout first, so the statements after it wait for a lock rather than fail.
    for (const p of PRAGMAS) await raw.execute(p);
    await untilUnlocked(() => raw.execute('PRAGMA journal_mode = WAL'));
    await raw.execute('PRAGMA synchronous = NORMAL');
  }
  const client = embedded ? serialised(raw) : replicaUrl ? routed(raw, replicaConnection(replicaUrl, authToken)) : raw;
  const db = drizzle(client, { schema }) as unknown as Database;
  return { db, client };
}
