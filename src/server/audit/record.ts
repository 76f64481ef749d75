// Writing the audit log (issue 56). One function for a change made inside a transaction
// (`auditIn`: the row commits or rolls back with the change it records) and one for an event
// that has no transaction of its own (`audit`: a failed sign-in, a download), which is awaited
// before the answer goes, so an event is never answered without its row.
//
// The chain stays whole with any number of processes (on one file or on sqld) because every row
// is written inside a write transaction (BEGIN IMMEDIATE: SQLite and sqld run one at a time)
// that reads the head from audit_state, writes the row with id = head + 1 and the head's hash,
// and moves the head. Should two writers ever read the same head, the second insert of that id
// fails on the primary key and its transaction rolls back: the chain never forks.
//
// This file takes the database as an argument (no app-wide handle), so `npm run backup`,
// `npm run restore` and the factors' code can write rows with their own connection.
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, auditState } from '../../db/schema.ts';
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

/**
 * Appends one row inside `tx`, a write transaction that also makes the change recorded (so both
 * commit or neither). Returns the row's id.
 */
export async function auditIn(tx: Tx, origin: AuditOrigin, entry: AuditEntry): Promise<number> {
  const [head] = await tx.select({ id: auditState.headId, hash: auditState.headHash, at: auditState.headAt }).from(auditState).where(eq(auditState.id, 1));
  if (!head) throw new Error('The audit log is not set up (audit_state has no row): run the migrations.');
  const fields: ChainedFields & { actorType: AuditActorType } = {
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
  const hash = rowHash(head.hash, fields);
  await tx.insert(auditLog).values({ ...fields, at: new Date(fields.at), prevHash: head.hash, hash });
  await tx.update(auditState).set({ headId: fields.id, headHash: hash, headAt: fields.at }).where(eq(auditState.id, 1));
  return fields.id;
}

/** Appends one row in a transaction of its own, for events that change nothing else. */
export function audit(db: Database, origin: AuditOrigin, entry: AuditEntry): Promise<number> {
  return db.transaction((tx) => auditIn(tx, origin, entry));
}

/** The origin of work no person asked for in a request: the backup schedule, retention, a command. */
export function systemOrigin(name: string): AuditOrigin {
  return { actor: { type: 'system', key: 'system', name }, ip: null, agent: '' };
}
