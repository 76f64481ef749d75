// What participants send during a live session (issue 41): the presenter's player state,
// handing control over, each participant's presence (the frame they are on, following or not),
// the laser pointer and drawings as they are drawn. Each is bounded (rate.ts; a drawing's size)
// and goes out as an event to the session's participants only.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { liveParticipants, liveSessions } from '../../db/schema.ts';
import { config } from '../config.ts';
import { HttpError } from '../http.ts';
import type { LiveState, LiveStateFields } from '../../shared/schemas/live.ts';
import type { Shape } from '../../shared/schemas/notes.ts';
import { appendEvent } from './log.ts';
import { principalKey, type LivePrincipal } from './principal.ts';
import { spendLive } from './rate.ts';
import { checkVersion, NOT_PRESENTER, publishParticipants, readState, requireParticipant, SESSION_GONE, type SessionRow } from './sessions.ts';

export const STROKE_TOO_LARGE = (max: number) => `This drawing is too large to share live (at most ${max} bytes).`;

const limit = (row: SessionRow, p: LivePrincipal) => spendLive(p, row.id);

/** The presenter's player: stored (a late joiner starts there) and sent to everyone. */
export async function setState(p: LivePrincipal, row: SessionRow, input: LiveStateFields): Promise<LiveState> {
  const key = principalKey(p);
  if (key !== row.presenter) throw new HttpError(403, NOT_PRESENTER);
  limit(row, p);
  await checkVersion(row.mediaId, input.versionId);
  if (input.compare) {
    await checkVersion(row.mediaId, input.compare.left);
    await checkVersion(row.mediaId, input.compare.right);
  }
  const part = await requireParticipant(p, row);
  // seq from the stored state, in the same statement, so two quick changes never share one.
  const [updated] = await db
    .update(liveSessions)
    .set({
      state: sql`json_set(${JSON.stringify({ ...input, at: 0, seq: 0 })}, '$.at', ${Date.now()}, '$.seq', coalesce(json_extract(${liveSessions.state}, '$.seq'), 0) + 1)`,
    })
    .where(and(eq(liveSessions.id, row.id), eq(liveSessions.presenter, key), isNull(liveSessions.endedAt)))
    .returning({ state: liveSessions.state });
  if (!updated) throw new HttpError(409, SESSION_GONE);
  const state = readState(updated);
  await appendEvent({ topic: 'live', audience: 'session', mediaId: row.mediaId, sessionId: row.id, data: { type: 'state', sessionId: row.id, state, presenter: part.id } });
  return state;
}

/** The presenter (or the staff member who started it, taking it back) gives control to a participant. */
export async function handOver(p: LivePrincipal, row: SessionRow, to: number): Promise<void> {
  const key = principalKey(p);
  const starter = p.kind === 'staff' && p.userId === row.startedBy;
  if (key !== row.presenter && !starter) throw new HttpError(403, NOT_PRESENTER);
  limit(row, p);
  const [target] = await db
    .select()
    .from(liveParticipants)
    .where(and(eq(liveParticipants.id, to), eq(liveParticipants.sessionId, row.id), isNull(liveParticipants.leftAt)))
    .limit(1);
  if (!target) throw new HttpError(400, 'to: that person is not in the session');
  const [updated] = await db
    .update(liveSessions)
    .set({ presenter: target.key })
    .where(and(eq(liveSessions.id, row.id), isNull(liveSessions.endedAt)))
    .returning();
  if (!updated) throw new HttpError(409, SESSION_GONE);
  // The new presenter leads from where everyone is; the old one follows them.
  await db.update(liveParticipants).set({ following: true }).where(and(eq(liveParticipants.sessionId, row.id), eq(liveParticipants.key, row.presenter)));
  await db.update(liveParticipants).set({ following: false }).where(eq(liveParticipants.id, target.id));
  const state = readState(updated);
  await appendEvent({ topic: 'live', audience: 'session', mediaId: row.mediaId, sessionId: row.id, data: { type: 'state', sessionId: row.id, state, presenter: target.id } });
  await publishParticipants(updated);
}

/** Where a participant is: the frame on their screen and whether they follow the presenter. */
export async function presence(p: LivePrincipal, row: SessionRow, frame: number | null, following: boolean): Promise<void> {
  limit(row, p);
  const part = await requireParticipant(p, row);
  await db.update(liveParticipants).set({ frame, following, lastSeenAt: new Date() }).where(eq(liveParticipants.id, part.id));
  await appendEvent({ topic: 'live', audience: 'session', mediaId: row.mediaId, sessionId: row.id, data: { type: 'presence', sessionId: row.id, participant: part.id, frame, following } });
}

/** The laser pointer (x, y from 0 to 1 of the picture), or hidden (null). */
export async function pointer(p: LivePrincipal, row: SessionRow, x: number | null, y: number | null): Promise<void> {
  limit(row, p);
  const part = await requireParticipant(p, row);
  const at = x === null || y === null ? { x: null, y: null } : { x, y };
  await appendEvent({ topic: 'live', audience: 'session', mediaId: row.mediaId, sessionId: row.id, data: { type: 'pointer', sessionId: row.id, participant: part.id, name: part.name, ...at } });
}

/** A drawing as it is being drawn (all its shapes so far; [] clears it). */
export async function draw(p: LivePrincipal, row: SessionRow, shapes: Shape[]): Promise<void> {
  if (Buffer.byteLength(JSON.stringify(shapes)) > config.LIVE_STROKE_BYTES) throw new HttpError(413, STROKE_TOO_LARGE(config.LIVE_STROKE_BYTES));
  limit(row, p);
  const part = await requireParticipant(p, row);
  await appendEvent({ topic: 'live', audience: 'session', mediaId: row.mediaId, sessionId: row.id, data: { type: 'draw', sessionId: row.id, participant: part.id, name: part.name, shapes } });
}
