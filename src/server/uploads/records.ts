// Who owns which resumable upload, and whether it is still open (see the uploads table).
import { and, eq, isNull, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { uploads } from '../../db/schema.ts';
import { config } from '../config.ts';

/** Open (not yet finished into a media item) uploads one user may hold at once. */
export const MAX_OPEN_UPLOADS = 5;

export type UploadRecord = typeof uploads.$inferSelect;

export function expiryMs(): number {
  return config.UPLOAD_EXPIRY_SECONDS * 1000;
}

/**
 * Inserts the record unless the user already holds MAX_OPEN_UPLOADS open ones; one
 * statement, so concurrent creations cannot both slip under the limit. False when over.
 */
export async function insertRecord(rec: { id: string; userId: string; size: number; filename: string }, now = Date.now()): Promise<boolean> {
  const expiresAt = now + expiryMs();
  const rows = await db.all<{ id: string }>(sql`
    INSERT INTO uploads (id, user_id, size, filename, created_at, expires_at)
    SELECT ${rec.id}, ${rec.userId}, ${rec.size}, ${rec.filename}, ${now}, ${expiresAt}
    WHERE (SELECT count(*) FROM uploads WHERE user_id = ${rec.userId} AND finished_at IS NULL AND expires_at > ${now}) < ${MAX_OPEN_UPLOADS}
    RETURNING id`);
  return rows.length === 1;
}

export async function getRecord(id: string): Promise<UploadRecord | null> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id)).limit(1);
  return row ?? null;
}

/**
 * The user's own open upload, or null: other users' uploads, finished ones and expired ones
 * all look the same from outside (404), so ids reveal nothing.
 */
export async function findOpenOwned(id: string, userId: string, now = Date.now()): Promise<UploadRecord | null> {
  const row = await getRecord(id);
  if (!row || row.userId !== userId || row.finishedAt || row.expiresAt.getTime() <= now) return null;
  return row;
}

/** Marks an open upload as being finished; false when someone else got there first. */
export async function claimRecord(id: string): Promise<boolean> {
  const rows = await db
    .update(uploads)
    .set({ finishedAt: new Date() })
    .where(and(eq(uploads.id, id), isNull(uploads.finishedAt)))
    .returning({ id: uploads.id });
  return rows.length === 1;
}

/** Gives a claimed upload back (finishing failed before its bytes were moved). */
export async function releaseRecord(id: string): Promise<void> {
  await db.update(uploads).set({ finishedAt: null }).where(eq(uploads.id, id));
}

export async function setMediaId(id: string, mediaId: number): Promise<void> {
  await db.update(uploads).set({ mediaId }).where(eq(uploads.id, id));
}

export async function deleteRecord(id: string): Promise<void> {
  await db.delete(uploads).where(eq(uploads.id, id));
}
