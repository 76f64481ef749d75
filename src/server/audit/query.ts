// Reading the audit log for its screen and CSV (issue 56): filters by person, kind, object and
// days, newest first, a page at a time by id (keyset: no OFFSET, so page 20,000 of 1,000,000 rows
// costs what page 1 does). Each filter has an index ending in the id, and dates become an id
// range (a row's time never goes back, record.ts), so a page reads about as many rows as it shows.
import { and, asc, desc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { auditLog, clients, shareLinks, users } from '../../db/schema.ts';
import { badRequest } from '../http.ts';
import type { AuditPage, AuditPerson, AuditRowView } from '../../shared/audit.ts';
import type { AuditQuery } from '../../shared/schemas/audit.ts';

/** Midnight at the start of `day` (YYYY-MM-DD) in UK time, as ms. */
export function ukMidnight(day: string): number {
  const utc = Date.parse(`${day}T00:00:00Z`);
  // London is UTC+0 or UTC+1: its hour at UTC midnight is the offset.
  const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', hourCycle: 'h23' }).format(utc));
  return utc - hour * 3600_000;
}

const DAY_MS = 24 * 3600_000;

/** The ids rows of these days have: [first, last], or null when none. */
async function idRange(q: Pick<AuditQuery, 'from' | 'to'>): Promise<{ min?: number; max?: number } | null> {
  const range: { min?: number; max?: number } = {};
  if (q.from) {
    const [row] = await db.select({ id: auditLog.id }).from(auditLog).where(gte(auditLog.at, new Date(ukMidnight(q.from)))).orderBy(asc(auditLog.at), asc(auditLog.id)).limit(1);
    if (!row) return null;
    range.min = row.id;
  }
  if (q.to) {
    // The next day's midnight, found from noon so a 23- or 25-hour day still lands on it.
    const end = ukMidnight(new Date(ukMidnight(q.to) + DAY_MS + 12 * 3600_000).toISOString().slice(0, 10));
    const [row] = await db.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.at, new Date(end))).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(1);
    if (!row) return null;
    range.max = row.id;
  }
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) return null;
  return range;
}

function conditions(q: AuditQuery, range: { min?: number; max?: number }, before: number | undefined): SQL | undefined {
  if (q.objectId !== undefined && q.objectType === undefined) throw badRequest('objectType: name the object type with its id');
  return and(
    q.kind ? eq(auditLog.kind, q.kind) : undefined,
    q.actor ? eq(auditLog.actorKey, q.actor) : undefined,
    q.objectType ? eq(auditLog.objectType, q.objectType) : undefined,
    q.objectId !== undefined ? eq(auditLog.objectId, q.objectId) : undefined,
    range.min !== undefined ? gte(auditLog.id, range.min) : undefined,
    range.max !== undefined ? lte(auditLog.id, range.max) : undefined,
    before !== undefined ? lt(auditLog.id, before) : undefined,
  );
}

const toView = (r: typeof auditLog.$inferSelect): AuditRowView => ({
  id: r.id,
  at: r.at.toISOString(),
  actorType: r.actorType,
  actorKey: r.actorKey,
  actorName: r.actorName,
  ip: r.ip,
  agent: r.agent,
  kind: r.kind,
  objectType: r.objectType,
  objectId: r.objectId,
  objectName: r.objectName,
  factor: r.factor,
  detail: r.detail,
});

/** One page, newest first; `next` continues it. */
export async function listAudit(q: AuditQuery): Promise<AuditPage> {
  const range = await idRange(q);
  if (!range) return { rows: [], next: null };
  const rows = await db
    .select()
    .from(auditLog)
    .where(conditions(q, range, q.before))
    .orderBy(desc(auditLog.id))
    .limit(q.limit + 1);
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit).map(toView);
  return { rows: page, next: more ? String(page.at(-1)!.id) : null };
}

/** Every matching row, newest first, read a page at a time (for the CSV). */
export async function* allAudit(q: AuditQuery): AsyncGenerator<AuditRowView> {
  let before = q.before;
  for (;;) {
    const page = await listAudit({ ...q, before, limit: 200 });
    yield* page.rows;
    if (!page.next) return;
    before = Number(page.next);
  }
}

/** The people the filter offers: staff, clients and share links (their guests), by name. */
export async function auditPeople(): Promise<AuditPerson[]> {
  const [staff, clientRows, links] = await Promise.all([
    db.select({ id: users.id, name: users.displayName, username: users.username }).from(users).orderBy(asc(users.username)),
    db.select({ id: clients.id, name: clients.name }).from(clients).orderBy(asc(clients.name)),
    db.select({ id: shareLinks.id, name: shareLinks.name }).from(shareLinks).where(sql`${shareLinks.clientId} IS NULL`).orderBy(desc(shareLinks.id)).limit(500),
  ]);
  return [
    ...staff.map((u) => ({ key: `staff:${u.id}`, name: `${u.name || u.username} (${u.username})` })),
    ...clientRows.map((c) => ({ key: `client:${c.id}`, name: `Client: ${c.name}` })),
    ...links.map((l) => ({ key: `link:${l.id}`, name: `Link: ${l.name}` })),
  ];
}
