// The events table (live_events) every web process tails: rows written by the database's own
// triggers (migration 0021) and by live review sessions (`appendEvent`). Ids only grow and
// writes are serialised by the database, so "every row after id N" is the same list for every
// process and for a tab resuming from Last-Event-ID.
import { asc, desc, gt, lt, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { liveEvents } from '../../db/schema.ts';
import { config } from '../config.ts';

export type LiveRow = typeof liveEvents.$inferSelect;
export type NewLiveRow = Omit<typeof liveEvents.$inferInsert, 'id' | 'createdAt' | 'data'> & { data: Record<string, unknown> };

/** Rows read in one go: beyond it, a resuming tab is told to load its screen again. */
export const READ_BATCH = 1000;

// Processes load two copies of this module (the server bundle, and the worker and start script
// from src/): a write through either wakes the tailer of the bundle at once.
const KICK = Symbol.for('studio.live.kick');
const g = globalThis as unknown as Record<symbol, (() => void) | undefined>;

export function kickTailer(): void {
  g[KICK]?.();
}

export function onKick(fn: () => void): void {
  g[KICK] = fn;
}

/** Writes one event and wakes this process's tailer; answers the row's id. */
export async function appendEvent(row: NewLiveRow, r: Pick<typeof db, 'insert'> = db): Promise<number> {
  const [written] = await r
    .insert(liveEvents)
    .values({ ...row, data: JSON.stringify(row.data) })
    .returning({ id: liveEvents.id });
  kickTailer();
  return written!.id;
}

export async function readAfter(id: number, limit = READ_BATCH): Promise<LiveRow[]> {
  return db.select().from(liveEvents).where(gt(liveEvents.id, id)).orderBy(asc(liveEvents.id)).limit(limit);
}

/**
 * The newest id ever given (0 before the first): AUTOINCREMENT keeps it in sqlite_sequence, so
 * it stays known after pruning has emptied the table.
 */
export async function headId(): Promise<number> {
  const rows = await db.all<{ seq: number }>(sql`SELECT seq FROM sqlite_sequence WHERE name = 'live_events'`);
  const [row] = await db.select({ id: liveEvents.id }).from(liveEvents).orderBy(desc(liveEvents.id)).limit(1);
  return Math.max(Number(rows[0]?.seq ?? 0), row?.id ?? 0);
}

/** The oldest id still kept (null on an empty table). */
export async function oldestId(): Promise<number | null> {
  const [row] = await db.select({ id: liveEvents.id }).from(liveEvents).orderBy(asc(liveEvents.id)).limit(1);
  return row?.id ?? null;
}

/** Drops rows older than the retention (any process may; deleting twice is harmless). */
export async function prune(now = Date.now()): Promise<void> {
  await db.delete(liveEvents).where(lt(liveEvents.createdAt, new Date(now - config.LIVE_RETENTION_MS)));
}

export function parseData(row: Pick<LiveRow, 'data'>): Record<string, unknown> {
  try {
    const v = JSON.parse(row.data) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
