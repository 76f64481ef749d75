// Live review sessions (issue 41): staff start one on an item and version; whoever may see the
// item joins it (staff with view:media, its clients, visitors of links that allow comments);
// the presenter's player is kept in the row so a late joiner starts where everyone is. It ends
// when the presenter ends it or has been gone LIVE_PRESENTER_GRACE_MS; its summary (who joined,
// notes made) stays on the item. Every change is an event in the table, so participants on
// other web processes see it too.
import { and, asc, count, desc, eq, gte, inArray, isNull, like, lt, lte, sql, type SQL } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { liveParticipants, liveSessions, media, mediaVersions, shareComments, timelineNotes } from '../../db/schema.ts';
import { config } from '../config.ts';
import { HttpError, notFound } from '../http.ts';
import type { LiveParticipant, LiveSessionInfo, LiveSessionRecord, LiveSessionView, LiveState, LiveSummary } from '../../shared/schemas/live.ts';
import { FactsCache, seesLive } from './audience.ts';
import { appendEvent } from './log.ts';
import { auditIn, type AuditOrigin } from '../audit/record.ts';
import { guestKeyPrefix, participantKind, principalKey, type LivePrincipal } from './principal.ts';

export type SessionRow = typeof liveSessions.$inferSelect;

export const SESSION_GONE = 'This live session has ended.';
export const SESSION_FULL = (max: number) => `This live session is full (${max} people). Please try again when someone leaves.`;
export const LINK_FULL = (max: number) => `This link already has ${max} guests in this live session. Please try again when one leaves.`;
export const NOT_PRESENTER = 'Only the presenter can do that.';
export const NOT_JOINED = 'Join the live session first.';

export function readState(row: Pick<SessionRow, 'state'>): LiveState {
  return JSON.parse(row.state) as LiveState;
}

function info(row: SessionRow, presenterName: string): LiveSessionInfo {
  return { id: row.id, mediaId: row.mediaId, presenterName, startedByName: row.startedByName, startedAt: row.createdAt.toISOString() };
}

async function presenterName(row: SessionRow): Promise<string> {
  const [p] = await db
    .select({ name: liveParticipants.name })
    .from(liveParticipants)
    .where(and(eq(liveParticipants.sessionId, row.id), eq(liveParticipants.key, row.presenter)))
    .limit(1);
  return p?.name ?? row.startedByName;
}

/** Whether the principal may see the item's live sessions now (links: only those allowing comments). */
export async function mayJoin(p: LivePrincipal, mediaId: number, facts = new FactsCache()): Promise<boolean> {
  return seesLive(p, await facts.item(mediaId));
}

/** The open session, if the principal may take part in it; 404 otherwise (it tells nothing). */
export async function openSession(p: LivePrincipal, sessionId: number): Promise<SessionRow> {
  const [row] = await db.select().from(liveSessions).where(eq(liveSessions.id, sessionId)).limit(1);
  if (!row || !(await mayJoin(p, row.mediaId))) throw notFound('Live session not found');
  if (row.endedAt) throw new HttpError(410, SESSION_GONE);
  return row;
}

/** The open sessions a principal may see (a stream's hello lists them). */
export async function openSessionsFor(p: LivePrincipal): Promise<LiveSessionInfo[]> {
  const rows = await db.select().from(liveSessions).where(isNull(liveSessions.endedAt)).orderBy(asc(liveSessions.id)).limit(500);
  const facts = new FactsCache();
  const out: LiveSessionInfo[] = [];
  for (const row of rows) if (await mayJoin(p, row.mediaId, facts)) out.push(info(row, await presenterName(row)));
  return out;
}

async function participants(row: Pick<SessionRow, 'id' | 'presenter'>): Promise<LiveParticipant[]> {
  const rows = await db.select().from(liveParticipants).where(eq(liveParticipants.sessionId, row.id)).orderBy(asc(liveParticipants.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    kind: r.kind,
    present: r.leftAt === null,
    presenter: r.key === row.presenter,
    following: r.following,
    frame: r.frame,
  }));
}

async function participantOf(sessionId: number, key: string) {
  const [row] = await db
    .select()
    .from(liveParticipants)
    .where(and(eq(liveParticipants.sessionId, sessionId), eq(liveParticipants.key, key)))
    .limit(1);
  return row ?? null;
}

/** The principal's participant row in an open session, present now (403 otherwise). */
export async function requireParticipant(p: LivePrincipal, row: SessionRow) {
  const part = await participantOf(row.id, principalKey(p));
  if (!part || part.leftAt) throw new HttpError(403, NOT_JOINED);
  return part;
}

export async function sessionView(p: LivePrincipal, row: SessionRow): Promise<LiveSessionView> {
  const list = await participants(row);
  const mine = await participantOf(row.id, principalKey(p));
  return {
    ...info(row, list.find((x) => x.presenter)?.name ?? row.startedByName),
    state: readState(row),
    participants: list,
    me: mine?.id ?? null,
    starter: p.kind === 'staff' && p.userId === row.startedBy,
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

/** Tells the session's participants who is there (and steers the tailer: join / leave). */
export async function publishParticipants(row: Pick<SessionRow, 'id' | 'mediaId' | 'presenter'>, steer: Record<string, unknown> = {}): Promise<void> {
  await appendEvent({
    topic: 'live',
    audience: 'session',
    mediaId: row.mediaId,
    sessionId: row.id,
    data: { type: 'participants', sessionId: row.id, participants: await participants(row), ...steer },
  });
}

/** The version a session shows must be one of the item's. */
export async function checkVersion(mediaId: number, versionId: number): Promise<void> {
  const [v] = await db
    .select({ id: mediaVersions.id })
    .from(mediaVersions)
    .where(and(eq(mediaVersions.id, versionId), eq(mediaVersions.mediaId, mediaId)))
    .limit(1);
  if (!v) throw new HttpError(400, `versionId: ${versionId} is not a version of this item`);
}

/** Starts a session (201), or answers the one already open on the item (200). Staff only. */
export async function startSession(p: LivePrincipal, mediaId: number, versionId: number | undefined, origin: AuditOrigin): Promise<{ created: boolean; view: LiveSessionView }> {
  if (p.kind !== 'staff') throw new HttpError(403, 'Only staff can start a live session.');
  const [item] = await db.select({ id: media.id, storageKey: media.storageKey }).from(media).where(eq(media.id, mediaId)).limit(1);
  if (!item) throw notFound('Media not found');
  let vid = versionId;
  if (vid === undefined) {
    const [cur] = await db.select({ id: mediaVersions.id }).from(mediaVersions).where(eq(mediaVersions.storageKey, item.storageKey)).limit(1);
    vid = cur!.id;
  } else await checkVersion(mediaId, vid);
  const state: LiveState = { versionId: vid, playing: false, rate: 1, ms: 0, frame: 0, compare: null, captions: null, at: Date.now(), seq: 1 };
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(liveSessions)
      .values({ mediaId, startedBy: p.userId, startedByName: p.name, presenter: principalKey(p), state: JSON.stringify(state) })
      .onConflictDoNothing()
      .returning();
    if (row) await auditIn(tx, origin, { kind: 'live.started', object: { type: 'media', id: mediaId }, detail: { sessionId: row.id, versionId: vid } });
    return row;
  });
  if (!created) {
    const [open] = await db.select().from(liveSessions).where(and(eq(liveSessions.mediaId, mediaId), isNull(liveSessions.endedAt))).limit(1);
    if (!open) throw new HttpError(409, 'A live session on this item was just ending. Please try again.');
    return { created: false, view: await sessionView(p, open) };
  }
  await appendEvent({ topic: 'live', audience: 'live-item', mediaId, sessionId: created.id, data: { type: 'started', session: info(created, p.name) } });
  return { created: true, view: await sessionView(p, created) };
}

export type Admission = { participant: number } | { refused: 'full' | 'link-full' | 'ended' };

/**
 * Makes `p` a participant present now (the same person in a second tab is the same one), within
 * the session's bounds: LIVE_SESSION_MAX_PARTICIPANTS people, and LIVE_LINK_MAX_PARTICIPANTS
 * guests of any one link. One statement checks and writes, so joins at once cannot overfill it.
 * Run by the process holding the stream that joins (tail.ts), never without one.
 */
export async function admit(row: SessionRow, p: LivePrincipal): Promise<Admission> {
  const key = principalKey(p);
  const now = Date.now();
  const linkPrefix = p.kind === 'link' ? `${guestKeyPrefix(p.linkId)}%` : null;
  const present = (extra: SQL) => sql`(SELECT count(*) FROM live_participants WHERE session_id = ${row.id} AND left_at IS NULL AND key <> ${key} AND ${extra})`;
  const [admitted] = await db.all<{ id: number }>(sql`
    INSERT INTO live_participants (session_id, key, kind, name, last_seen_at, following)
    SELECT ${row.id}, ${key}, ${participantKind(p)}, ${p.name}, ${now}, ${key !== row.presenter ? 1 : 0}
    WHERE EXISTS (SELECT 1 FROM live_participants WHERE session_id = ${row.id} AND key = ${key} AND left_at IS NULL)
      OR (${present(sql`1`)} < ${config.LIVE_SESSION_MAX_PARTICIPANTS}
        AND (${linkPrefix} IS NULL OR ${present(sql`key LIKE ${linkPrefix}`)} < ${config.LIVE_LINK_MAX_PARTICIPANTS}))
    ON CONFLICT (session_id, key) DO UPDATE SET left_at = NULL, last_seen_at = excluded.last_seen_at, name = excluded.name
    RETURNING id`);
  if (admitted) return { participant: Number(admitted.id) };
  if (!linkPrefix) return { refused: 'full' };
  const [{ n }] = (await db
    .select({ n: count() })
    .from(liveParticipants)
    .where(and(eq(liveParticipants.sessionId, row.id), isNull(liveParticipants.leftAt), like(liveParticipants.key, linkPrefix)))) as [{ n: number }];
  return { refused: n >= config.LIVE_LINK_MAX_PARTICIPANTS ? 'link-full' : 'full' };
}

/** What a refused admission answers (429 for a bound, 410 for a session that ended meanwhile). */
export function refusal(reason: Exclude<Admission, { participant: number }>['refused']): HttpError {
  if (reason === 'ended') return new HttpError(410, SESSION_GONE);
  if (reason === 'link-full') return new HttpError(429, LINK_FULL(config.LIVE_LINK_MAX_PARTICIPANTS));
  return new HttpError(429, SESSION_FULL(config.LIVE_SESSION_MAX_PARTICIPANTS));
}

/**
 * Leaves (the Leave button, or the last stream of this person in the session closing). The
 * Leave button names its tab's stream: the process holding it stops sending it the session.
 */
export async function leave(row: Pick<SessionRow, 'id' | 'mediaId' | 'presenter'>, key: string, connection?: string): Promise<void> {
  const gone = await db
    .update(liveParticipants)
    .set({ leftAt: new Date() })
    .where(and(eq(liveParticipants.sessionId, row.id), eq(liveParticipants.key, key), isNull(liveParticipants.leftAt)))
    .returning({ id: liveParticipants.id });
  if (gone.length || connection) await publishParticipants(row, connection ? { leave: { connection, key } } : {});
}

async function summarise(row: SessionRow, endedAt: Date, reason: LiveSummary['reason']): Promise<LiveSummary> {
  const people = await db.select({ key: liveParticipants.key, name: liveParticipants.name, kind: liveParticipants.kind }).from(liveParticipants).where(eq(liveParticipants.sessionId, row.id)).orderBy(asc(liveParticipants.id));
  const window = (col: typeof timelineNotes.createdAt | typeof shareComments.createdAt) => and(gte(col, row.createdAt), lte(col, endedAt));
  const [{ n: notes }] = (await db.select({ n: count() }).from(timelineNotes).where(and(eq(timelineNotes.mediaId, row.mediaId), window(timelineNotes.createdAt)))) as [{ n: number }];
  const [{ n: guestNotes }] = (await db
    .select({ n: count() })
    .from(shareComments)
    .where(and(eq(shareComments.mediaId, row.mediaId), eq(shareComments.kind, 'note'), window(shareComments.createdAt)))) as [{ n: number }];
  return {
    participants: people.map(({ name, kind }) => ({ name, kind })),
    notes: notes + guestNotes,
    startedAt: row.createdAt.toISOString(),
    endedAt: endedAt.toISOString(),
    reason,
  };
}

/** Ends a session once (a second ending finds it ended and does nothing). */
export async function endSession(row: SessionRow, reason: LiveSummary['reason']): Promise<LiveSummary | null> {
  const endedAt = new Date();
  const summary = await summarise(row, endedAt, reason);
  const [ended] = await db
    .update(liveSessions)
    .set({ endedAt, endReason: reason, summary: JSON.stringify(summary) })
    .where(and(eq(liveSessions.id, row.id), isNull(liveSessions.endedAt)))
    .returning({ id: liveSessions.id });
  if (!ended) return null;
  await db.update(liveParticipants).set({ leftAt: endedAt }).where(and(eq(liveParticipants.sessionId, row.id), isNull(liveParticipants.leftAt)));
  await appendEvent({ topic: 'live', audience: 'live-item', mediaId: row.mediaId, sessionId: row.id, data: { type: 'ended', sessionId: row.id, mediaId: row.mediaId, summary } });
  return summary;
}

/** The presenter, or staff who may see the item, end it. */
export async function endBy(p: LivePrincipal, row: SessionRow): Promise<LiveSummary> {
  if (principalKey(p) !== row.presenter && !(p.kind === 'staff' && p.permissions.has('view:media'))) throw new HttpError(403, NOT_PRESENTER);
  const summary = await endSession(row, 'ended');
  if (!summary) throw new HttpError(410, SESSION_GONE);
  return summary;
}

/** An item's sessions for staff: the open one and the summaries of ended ones, newest first. */
export async function sessionsOf(mediaId: number): Promise<LiveSessionRecord[]> {
  const rows = await db.select().from(liveSessions).where(eq(liveSessions.mediaId, mediaId)).orderBy(desc(liveSessions.id)).limit(50);
  return Promise.all(
    rows.map(async (row) => ({
      ...info(row, await presenterName(row)),
      endedAt: row.endedAt?.toISOString() ?? null,
      summary: row.summary ? (JSON.parse(row.summary) as LiveSummary) : null,
    })),
  );
}

/**
 * How long a participant goes unseen before they are marked gone: their streams' web process
 * died (no stream closed to say so), since the process holding a participant's stream renews
 * them on every heartbeat.
 */
const participantSilence = () => 2 * config.LIVE_HEARTBEAT_MS + 10_000;

/**
 * Ends sessions whose presenter has been gone LIVE_PRESENTER_GRACE_MS: left (its last stream
 * closed), or not seen for that long plus two heartbeats (its web process died), or never came.
 * Participants not seen for `participantSilence()` are marked gone first.
 */
export async function sweepSessions(now = Date.now()): Promise<number> {
  const unseen = await db
    .update(liveParticipants)
    .set({ leftAt: new Date(now) })
    .where(and(isNull(liveParticipants.leftAt), lt(liveParticipants.lastSeenAt, new Date(now - participantSilence()))))
    .returning({ sessionId: liveParticipants.sessionId });
  const touched = [...new Set(unseen.map((u) => u.sessionId))];
  if (touched.length) {
    for (const row of await db.select().from(liveSessions).where(and(inArray(liveSessions.id, touched), isNull(liveSessions.endedAt)))) await publishParticipants(row);
  }
  const grace = config.LIVE_PRESENTER_GRACE_MS;
  const silent = grace + 2 * config.LIVE_HEARTBEAT_MS;
  const rows = await db
    .select({ session: liveSessions, leftAt: liveParticipants.leftAt, lastSeenAt: liveParticipants.lastSeenAt })
    .from(liveSessions)
    .leftJoin(liveParticipants, and(eq(liveParticipants.sessionId, liveSessions.id), eq(liveParticipants.key, liveSessions.presenter)))
    .where(isNull(liveSessions.endedAt));
  let ended = 0;
  for (const { session, leftAt, lastSeenAt } of rows) {
    const gone = lastSeenAt === null ? now - session.createdAt.getTime() > grace : (leftAt !== null && now - leftAt.getTime() > grace) || now - lastSeenAt.getTime() > silent;
    if (gone && (await endSession(session, 'presenter-left'))) ended++;
  }
  return ended;
}

/** Keeps the participants whose streams are open here marked present (the heartbeat). */
export async function touch(pairs: { sessionId: number; key: string }[]): Promise<void> {
  const now = new Date();
  for (const { sessionId, key } of pairs) {
    await db
      .update(liveParticipants)
      .set({ lastSeenAt: now })
      .where(and(eq(liveParticipants.sessionId, sessionId), eq(liveParticipants.key, key), isNull(liveParticipants.leftAt)));
  }
}

export const sessionById = async (id: number) => (await db.select().from(liveSessions).where(eq(liveSessions.id, id)).limit(1))[0] ?? null;
