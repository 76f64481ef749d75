// The audit log as CSV (issue 56): the rows the screen's filters select, all of them, streamed a
// page at a time so a million rows never sit in memory. The export is itself a row of the log.
import { db } from '../../db/index.ts';
import { contentDisposition } from '../media/delivery.ts';
import { csvLine } from '../csv.ts';
import { AUDIT_KINDS, isAuditKind } from '../../shared/audit.ts';
import type { AuditQuery } from '../../shared/schemas/audit.ts';
import { allAudit } from './query.ts';
import { audit, type AuditOrigin } from './record.ts';

const HEADER = ['id', 'when (UTC)', 'kind', 'what', 'who type', 'who', 'person key', 'address', 'device', 'object type', 'object id', 'object', 'factor', 'detail'];

export async function auditCsvResponse(q: AuditQuery, origin: AuditOrigin): Promise<Response> {
  const { limit: _l, before: _b, ...filters } = q;
  await audit(db, origin, { kind: 'audit.exported', object: { type: 'audit', id: 'log' }, detail: { filters } });
  const rows = allAudit({ ...q, before: undefined });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(encoder.encode(csvLine(HEADER)));
    },
    async pull(c) {
      const next = await rows.next();
      if (next.done) return c.close();
      const r = next.value;
      const what = isAuditKind(r.kind) ? AUDIT_KINDS[r.kind] : r.kind;
      c.enqueue(encoder.encode(csvLine([r.id, r.at, r.kind, what, r.actorType, r.actorName, r.actorKey, r.ip, r.agent, r.objectType, r.objectId, r.objectName, r.factor, r.detail])));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': contentDisposition(`audit-log-${stamp}.csv`), 'Cache-Control': 'private, no-store' },
  });
}
