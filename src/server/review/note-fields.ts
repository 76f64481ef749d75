// Reading and checking a note's exact time, range end and drawings (issue 29), the same for
// timeline_notes (clients and staff) and share_comments (link visitors).
import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { badRequest } from '../http.ts';
import { shapesSchema, type NoteTime, type NoteTimeInput, type Shape } from '../../shared/schemas/notes.ts';

/**
 * The stored exact time as a safe whole number of milliseconds within 0..upper seconds. Rows
 * written before issue 29 (or by hand without it) have no `timestamp_ms`: their whole seconds
 * × 1000, clamped like the seconds are.
 */
export function safeMs(ms: SQLiteColumn, seconds: SQLiteColumn, upperSeconds: SQL): SQL<number> {
  return sql<number>`cast(max(0, min(coalesce(${ms}, ${seconds} * 1000), (${upperSeconds}) * 1000)) as integer)`.mapWith(Number);
}

/** Stored drawings back as shapes; anything unreadable (never written by this code) reads as none. */
export function readShapes(stored: string | null | undefined): Shape[] {
  if (!stored) return [];
  try {
    const parsed = shapesSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Drawings to store: JSON, or null for none. */
export function storeShapes(shapes: Shape[]): string | null {
  return shapes.length ? JSON.stringify(shapes) : null;
}

/**
 * The note's start and end against the version's length (when known, stored in whole seconds,
 * so a time within its last second passes, as whole-second notes always did); names the field sent.
 */
export function checkAgainstDuration(input: NoteTimeInput, time: NoteTime, durationSeconds: number | null): void {
  if (durationSeconds == null) return;
  if (time.timestampSeconds > durationSeconds) {
    const field = input.timestampMs != null ? 'timestampMs' : 'timestampSeconds';
    throw badRequest(`${field}: Timestamp must not be beyond the end of the video (${durationSeconds} seconds)`);
  }
  if (time.endMs != null && Math.floor(time.endMs / 1000) > durationSeconds) {
    throw badRequest(`endMs: The end must not be beyond the end of the video (${durationSeconds} seconds)`);
  }
}

/**
 * Where a note may go (issue 29): any moment of a video; on an image (drawings on the picture)
 * only at 0 and without a range, since a picture has no time. Names the field sent.
 */
export function checkNoteTarget(type: string, input: NoteTimeInput, time: NoteTime): void {
  if (type === 'video') return;
  if (time.timestampMs !== 0) throw badRequest(`${input.timestampMs != null ? 'timestampMs' : 'timestampSeconds'}: A note on an image is at 0 (an image has no time)`);
  if (time.endMs != null) throw badRequest('endMs: A note on an image has no range');
}
