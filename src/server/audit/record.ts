// Writing the audit log (issue 56). One function for a change made inside a transaction
// (`auditIn`: the row commits or rolls back with the change it records) and one for an event
// that has no transaction of its own (`audit`: a failed sign-in, a download; one statement),
// which is awaited before the answer goes, so an event is never answered without its row.
//
// The chain stays whole with any number of processes (on one file or on sqld) because a row is
// inserted only after the head it was hashed on, checked in the insert itself (one atomic
// statement, which also moves the head through the trigger of migration 0033): the row gets
// id = head + 1 and the head's hash. When the head this process guessed has moved, the head is
// read inside a write transaction (BEGIN IMMEDIATE: SQLite and sqld run one at a time) and the
// row written after it. Should two writers ever race for one id, the primary key refuses the
// second: the chain never forks.
//
// This file takes the database as an argument (no app-wide handle), so `npm run backup`,
// `npm run restore` and the factors' code can write rows with their own connection.
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditState } from '../../db/schema.ts';
import type { AuditKind } from '../../shared/audit.ts';
import { rowHash, type ChainedFields } from './chain.ts';

export type AuditActorType = 'staff' | 'client' | 'guest' | 'system' | 'anonymous';

/** Who acted: `key` is what the person filter matches ('staff:<id>', 'client:<id>', 'link:<id>'). */
export interface AuditActor {
  type: AuditActorType;
  key: string;
  name: string;
}

/** Who acted and from where: made once per request by origin.ts (or systemOrigin for scripts). */
export interface AuditOrigin {
  actor: AuditActor;
  ip: string | null;
  /** A summary of the user agent (agentSummary), not the header. */
  agent: string;
}

/** The object a row is about, e.g. { type: 'user', id, name }. */
export interface AuditObject {
  type: string;
  id: string | number;
  name?: string;
}

export interface AuditEntry {
  kind: AuditKind;
  object?: AuditObject | null;
  /** The sign-in factor a sign-in row is about: 'password' here; 'totp', 'passkey' … for the factors. */
  factor?: string | null;
  /** Anything more worth keeping (what changed, a reason), as JSON; strings are cut at 500 characters. */
  detail?: Record<string, unknown> | null;
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

const MAX_TEXT = 500;

function detailJson(detail: AuditEntry['detail']): string {
  if (!detail || !Object.keys(detail).length) return '';
  return JSON.stringify(detail, (_k, v: unknown) => (typeof v === 'string' && v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v));
}

interface Head {
  id: number;
  hash: string;
  at: number;
}

// The head this process last read or wrote. Only a guess: the insert below checks it against
// audit_state in the same statement, so a stale guess (another process wrote since, a transaction
// rolled back, a restore) inserts nothing and the head is read again. A guess that holds makes a
// row one round trip (the trigger of migration 0033 moves the head with it) instead of three.
let lastHead: Head | null = null;

type Runner = Pick<Database, 'run'> | Pick<Tx, 'run'>;

/** Inserts the row after `head` if `head` is still the head; returns the new head, or null when it moved. */
async function insertAfter(runner: Runner, head: Head, origin: AuditOrigin, entry: AuditEntry): Promise<Head | null> {
  const f: ChainedFields & { actorType: AuditActorType } = {
    id: head.id + 1,
    // Never before the head: dates then map onto id ranges (query.ts), whatever the clocks of
    // several processes say.
    at: Math.max(Date.now(), head.at),
    actorType: origin.actor.type,
    actorKey: origin.actor.key,
    actorName: origin.actor.name.slice(0, 200),
    ip: origin.ip,
    agent: origin.agent.slice(0, 100),
    kind: entry.kind,
    objectType: entry.object?.type ?? null,
    objectId: entry.object ? String(entry.object.id) : null,
    objectName: (entry.object?.name ?? '').slice(0, 200),
    factor: entry.factor ?? null,
    detail: detailJson(entry.detail),
  };
  const hash = rowHash(head.hash, f);
  const res = await runner.run(sql`
    INSERT INTO audit_log (id, at, actor_type, actor_key, actor_name, ip, agent, kind, object_type, object_id, object_name, factor, detail, prev_hash, hash)
    SELECT ${f.id}, ${f.at}, ${f.actorType}, ${f.actorKey}, ${f.actorName}, ${f.ip}, ${f.agent}, ${f.kind}, ${f.objectType}, ${f.objectId}, ${f.objectName}, ${f.factor}, ${f.detail}, ${head.hash}, ${hash}
    WHERE EXISTS (SELECT 1 FROM audit_state WHERE id = 1 AND head_id = ${head.id} AND head_hash = ${head.hash})`);
  return res.rowsAffected === 1 ? { id: f.id, hash, at: f.at } : null;
}

/** The guessed head, if it still holds (one statement, atomic with or without a transaction). */
async function onGuessedHead(runner: Runner, origin: AuditOrigin, entry: AuditEntry): Promise<number | null> {
  const guess = lastHead;
  const head = guess && (await insertAfter(runner, guess, origin, entry));
  if (!head) return null;
  lastHead = head;
  return head.id;
}

/** Reads the head and writes after it: inside a write transaction nobody else can move it meanwhile. */
async function onReadHead(tx: Tx, origin: AuditOrigin, entry: AuditEntry): Promise<number> {
  const [read] = await tx.select({ id: auditState.headId, hash: auditState.headHash, at: auditState.headAt }).from(auditState).where(eq(auditState.id, 1));
  if (!read) throw new Error('The audit log is not set up (audit_state has no row): run the migrations.');
  const head = await insertAfter(tx, read, origin, entry);
  if (!head) throw new Error('The audit log head moved inside a write transaction.');
  lastHead = head;
  return head.id;
}

/**
 * Appends one row inside `tx`, a write transaction that also makes the change recorded (so both
 * commit or neither). Returns the row's id.
 */
export async function auditIn(tx: Tx, origin: AuditOrigin, entry: AuditEntry): Promise<number> {
  return (await onGuessedHead(tx, origin, entry)) ?? onReadHead(tx, origin, entry);
}

/** Appends one row on its own, for events that change nothing else. */
export async function audit(db: Database, origin: AuditOrigin, entry: AuditEntry): Promise<number> {
  return (await onGuessedHead(db, origin, entry)) ?? db.transaction((tx) => onReadHead(tx, origin, entry));
}

/** The origin of work no person asked for in a request: the backup schedule, retention, a command. */
export function systemOrigin(name: string): AuditOrigin {
  return { actor: { type: 'system', key: 'system', name }, ip: null, agent: '' };
}
