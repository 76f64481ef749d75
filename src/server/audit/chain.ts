// The audit log's hash chain (issue 56): each row's hash covers its own fields and the hash of
// the row before, so editing, inserting or deleting a row anywhere changes every hash after it.
// Plain functions of the row, shared by the writer (record.ts) and the verifier (verify.ts).
import { createHash } from 'node:crypto';
import type { AuditRowView } from '../../shared/audit.ts';

/** The hash before the first row ever written (the anchor of an unpruned log). */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields a row's hash covers: all of them but the hash itself (those the screen shows, the time in ms). */
export type ChainedFields = Omit<AuditRowView, 'at' | 'actorType'> & { at: number; actorType: string };

/** SHA-256 (hex) of the previous hash and the row's fields, in a fixed order, as JSON. */
export function rowHash(prevHash: string, r: ChainedFields): string {
  const fields = [r.id, r.at, r.actorType, r.actorKey, r.actorName, r.ip, r.agent, r.kind, r.objectType, r.objectId, r.objectName, r.factor, r.detail];
  return createHash('sha256').update(`${prevHash}\n${JSON.stringify(fields)}`).digest('hex');
}
