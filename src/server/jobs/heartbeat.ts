// Each video worker says it is alive every few seconds (one row per worker), so GET /api/health
// in any process can tell whether videos are being converted, and whether the worker found
// ffmpeg (a worker may run on another machine than the web process answering).
import { desc, lt, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { workerHeartbeats } from '../../db/schema.ts';

export const HEARTBEAT_MS = 10_000;
/** Rows of workers gone this long are removed by the next beat of any worker. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

export async function beat(owner: string, ffmpeg: boolean): Promise<void> {
  const now = Date.now();
  await db
    .insert(workerHeartbeats)
    .values({ owner, seenAt: now, ffmpeg })
    .onConflictDoUpdate({ target: workerHeartbeats.owner, set: { seenAt: now, ffmpeg } });
  await db.delete(workerHeartbeats).where(lt(workerHeartbeats.seenAt, now - FORGET_AFTER_MS));
}

/** A worker stopping on purpose: health no longer counts it. */
export async function forget(owner: string): Promise<void> {
  await db.delete(workerHeartbeats).where(eq(workerHeartbeats.owner, owner));
}

/** The most recent beat of any worker, or null when none has beaten (within a day). */
export async function latestBeat(): Promise<{ seenAt: number; ffmpeg: boolean } | null> {
  const [row] = await db.select({ seenAt: workerHeartbeats.seenAt, ffmpeg: workerHeartbeats.ffmpeg }).from(workerHeartbeats).orderBy(desc(workerHeartbeats.seenAt)).limit(1);
  return row ?? null;
}
