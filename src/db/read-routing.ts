// Which database a read goes to when DATABASE_REPLICA_URL names a read replica (issue 44).
// Default: the primary. A request that carries no cookie at all (an anonymous visitor of the
// public site, with no session, share-link pass or sign-in to see) runs inside
// `replicaReads()`, and its reads may go to the replica, which is at most a replication lag
// behind (docs/database.md). Anyone who wrote something carries a cookie (staff and clients
// sign in; a share-link visitor holds a pass) and reads from the primary, so they always see
// their own writes; and once a request writes, its own later reads go to the primary too.
import { AsyncLocalStorage } from 'node:async_hooks';

const store = new AsyncLocalStorage<{ replica: boolean }>();

export function replicaReads<T>(fn: () => T): T {
  return store.run({ replica: true }, fn);
}

export function readsMayUseReplica(): boolean {
  return store.getStore()?.replica === true;
}

/** A write happened: what this request reads from now on comes from the primary. */
export function wrote(): void {
  const s = store.getStore();
  if (s) s.replica = false;
}

// drizzle sends its reads as `select ...`; raw reads start with SELECT or WITH. A statement
// naming a write keyword anywhere goes to the primary (a false alarm only costs a hop): a
// `WITH ... INSERT` begins like a read.
const READ_RE = /^\s*(select|with)\b/i;
const WRITE_RE = /\b(insert|update|delete|replace|create|drop|alter)\b/i;

/** Whether a statement only reads (and so may go to a replica). */
export function readsOnly(sql: string): boolean {
  return READ_RE.test(sql) && !WRITE_RE.test(sql);
}
