// Checking the audit log's chain (issue 56; `npm run audit:verify`): every row from the anchor
// (the last row pruned, or the start) to the head must follow the one before, id by id, and
// hash to what it holds. Names the first row that does not. Takes its own database handle, so
// the command runs beside the app.
import { asc, eq, gt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, auditState } from '../../db/schema.ts';
import { rowHash } from './chain.ts';

export interface VerifyResult {
  ok: boolean;
  /** Rows checked. */
  rows: number;
  firstId: number | null;
  headId: number;
  headHash: string;
  /** The first row that breaks the chain, and why. */
  broken?: { id: number; reason: string };
}

const PAGE = 5000;

export async function verifyChain(db: Database): Promise<VerifyResult> {
  const [state] = await db.select().from(auditState).where(eq(auditState.id, 1));
  if (!state) return { ok: false, rows: 0, firstId: null, headId: 0, headHash: '', broken: { id: 0, reason: 'the audit log is not set up (audit_state has no row)' } };
  const result = (rows: number, firstId: number | null, broken?: VerifyResult['broken']): VerifyResult => ({ ok: !broken, rows, firstId, headId: state.headId, headHash: state.headHash, broken });
  let prevHash = state.anchorHash;
  let expected = state.anchorId + 1;
  let rows = 0;
  let firstId: number | null = null;
  let after = 0;
  for (;;) {
    const page = await db.select().from(auditLog).where(gt(auditLog.id, after)).orderBy(asc(auditLog.id)).limit(PAGE);
    for (const r of page) {
      firstId ??= r.id;
      if (r.id < expected) return result(rows, firstId, { id: r.id, reason: `row ${r.id} is older than the anchor (row ${state.anchorId}, the last one pruned): it was put back or written around the chain` });
      if (r.id > expected) return result(rows, firstId, { id: expected, reason: expected > state.headId ? `row ${r.id} is past the head (row ${state.headId}): written around the chain` : `row ${expected} is missing (deleted); the next row is ${r.id}` });
      if (r.prevHash !== prevHash) {
        return result(rows, firstId, { id: r.id, reason: `row ${r.id} does not follow row ${r.id - 1}: its previous hash is not that row's hash (row ${r.id - 1} was changed and hashed again, or row ${r.id} was)` });
      }
      const hash = rowHash(prevHash, { ...r, at: r.at.getTime() });
      if (hash !== r.hash) return result(rows, firstId, { id: r.id, reason: `row ${r.id} was changed: its hash does not match what it holds` });
      prevHash = r.hash;
      expected = r.id + 1;
      rows++;
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.id;
  }
  if (expected - 1 !== state.headId) {
    return result(rows, firstId, { id: expected, reason: `rows ${expected} to ${state.headId} are missing (deleted from the end); the head is row ${state.headId}` });
  }
  if (prevHash !== state.headHash) return result(rows, firstId, { id: state.headId, reason: `the head (row ${state.headId}) does not hash to the recorded head hash` });
  return result(rows, firstId);
}
