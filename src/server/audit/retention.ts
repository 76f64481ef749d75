// Keeping the audit log to its retention (AUDIT_RETENTION_DAYS, 2 years by default; issue 56).
// Rows older than that are deleted oldest first, a batch per transaction, and the anchor moves to
// the last row deleted (its id and hash) in the same transaction, so the rows left still verify
// from there. Each pruning run is itself a row ("audit.pruned", naming the anchor). Every
// process may run it: the transactions are serialised and the second finds nothing to do.
import { asc, eq, lt, and, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, auditState } from '../../db/schema.ts';
import { auditIn, systemOrigin } from './record.ts';

const BATCH = 5000;

/** Deletes every row written before `before`. Returns how many went. */
export async function pruneAudit(db: Database, before: Date): Promise<number> {
  let pruned = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const rows = await tx.select({ id: auditLog.id, hash: auditLog.hash }).from(auditLog).where(lt(auditLog.at, before)).orderBy(asc(auditLog.id)).limit(BATCH);
      if (!rows.length) {
        // The run ended on a full batch: its row is written here.
        if (pruned) await auditIn(tx, systemOrigin('Retention'), { kind: 'audit.pruned', detail: { rows: pruned, before: before.toISOString() } });
        return 0;
      }
      const last = rows.at(-1)!;
      // Dates only grow with ids (record.ts), so these are the oldest rows, all of them.
      await tx.delete(auditLog).where(and(lte(auditLog.id, last.id), lt(auditLog.at, before)));
      await tx.update(auditState).set({ anchorId: last.id, anchorHash: last.hash, prunedAt: new Date() }).where(eq(auditState.id, 1));
      if (rows.length < BATCH) {
        await auditIn(tx, systemOrigin('Retention'), {
          kind: 'audit.pruned',
          detail: { rows: pruned + rows.length, before: before.toISOString(), anchorId: last.id, anchorHash: last.hash },
        });
      }
      return rows.length;
    });
    pruned += n;
    if (n < BATCH) return pruned;
  }
}

/** Prunes now and then every `intervalMs`; rows older than `days` go. */
export function startAuditRetention(db: Database, days: number, intervalMs: number): { stop: () => void } {
  const run = () =>
    pruneAudit(db, new Date(Date.now() - days * 24 * 3600_000)).catch((e: unknown) => console.error(`Audit log pruning failed: ${String(e)}`));
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
