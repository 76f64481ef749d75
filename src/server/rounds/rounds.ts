// Review rounds (issue 57 items 1–2): an item's review in 1–5 ordered stages. Staff start a
// round (edit:media) naming each stage's reviewers (staff who see the library, logins of the
// item's clients), rule and due date; the first stage opens. Each reviewer of the open stage
// decides on the current version; when the stage's rule is met it closes and the next opens, and
// the last closing approves the version. "Request changes" sends the round back to the studio
// until a new version arrives, which makes the open stage's decisions history (kept, no longer
// counted) and reopens a finished round's last stage. The version's approval columns (what the
// download gate, the badges and the filters read) follow the round.
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import {
  clientUsers,
  clients,
  media,
  mediaVersions,
  noteTasks,
  reviewDecisions,
  reviewRounds,
  reviewStageReviewers,
  reviewStages,
  shareComments,
  timelineNotes,
  users,
} from '../../db/schema.ts';
import { HttpError, conflict, notFound } from '../http.ts';
import { auditIn, type AuditOrigin } from '../audit/record.ts';
import { clientsOf } from '../portal/assigned.ts';
import { libraryStaff, nameOf } from './tasks.ts';
import { stageOutcome } from './rules.ts';
import { recordEvent } from '../notifications/index.ts';
import { callReviewers } from './notify.ts';
import { LOCKED_MESSAGE, staleVersionMessage } from '../review/approval-messages.ts';
import type { Database } from '../../db/client.ts';
import {
  DECISION_LABELS,
  type BoardStage,
  type Decision,
  type DecisionInput,
  type ReviewerCandidate,
  type ReviewerRef,
  type RoundBoard,
  type RoundInput,
} from '../../shared/schemas/rounds.ts';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type Reader = Pick<Database, 'select'>;

/** Who is looking or deciding. */
export type Viewer = { kind: 'staff'; userId: string } | { kind: 'client'; clientUserId: number; clientId: number };

export const NO_ROUND = 'This item has no review round.';
export const NOT_A_REVIEWER = 'You are not a reviewer in this round’s open stage.';
export const ROUND_FINISHED = 'This review round is finished: there is nothing left to decide.';
export const ROUND_ACTIVE = 'This item already has a review round in progress: cancel it first.';
export { IN_A_ROUND } from './approval-round.ts';
const notYourStage = (open: string) => `Your stage has not opened yet: “${open}” reviews this version first.`;
const stageClosed = (name: string) => `Your stage (“${name}”) has closed; the round has moved on.`;

// ---------------------------------------------------------------------------------------------
// Who may be named

/** Staff who see the library, and the active logins of the item's clients. */
export async function reviewerCandidates(mediaId: number): Promise<ReviewerCandidate[]> {
  await requireItem(mediaId);
  const staff = (await libraryStaff()).map((u): ReviewerCandidate => ({ kind: 'staff', id: u.id, name: nameOf(u), group: 'Studio' }));
  const clientIds = [...(await clientsOf(mediaId))];
  const logins = clientIds.length
    ? await db
        .select({ id: clientUsers.id, username: clientUsers.username, client: clients.name })
        .from(clientUsers)
        .innerJoin(clients, eq(clients.id, clientUsers.clientId))
        .where(and(inArray(clientUsers.clientId, clientIds), eq(clientUsers.isActive, true), eq(clients.isActive, true)))
    : [];
  const byName = (a: ReviewerCandidate, b: ReviewerCandidate) => a.group.localeCompare(b.group) || a.name.localeCompare(b.name);
  return [...staff.sort(byName), ...logins.map((l): ReviewerCandidate => ({ kind: 'client', id: l.id, name: l.username, group: l.client })).sort(byName)];
}

async function requireItem(mediaId: number, r: Reader = db) {
  const [item] = await r.select({ id: media.id, storageKey: media.storageKey, title: media.title }).from(media).where(eq(media.id, mediaId)).limit(1);
  if (!item) throw notFound('Media not found');
  return item;
}

async function currentVersionOf(r: Reader, storageKey: string) {
  const [v] = await r
    .select({ id: mediaVersions.id, number: mediaVersions.number, locked: mediaVersions.approvalLocked })
    .from(mediaVersions)
    .where(eq(mediaVersions.storageKey, storageKey))
    .limit(1);
  if (!v) throw new HttpError(500, 'The media item has no current version');
  return v;
}

const sameRef = (a: ReviewerRef, b: ReviewerRef) => (a.kind === 'staff' ? b.kind === 'staff' && a.userId === b.userId : b.kind === 'client' && a.clientUserId === b.clientUserId);

// ---------------------------------------------------------------------------------------------
// Starting and cancelling

/**
 * Starts a round on the item: every reviewer must be able to see it (a client login of one of
 * its clients, or staff who see the library), a due date must be in the future, an 'approver'
 * stage names one of its reviewers. An item has one round in progress at a time; a client
 * approval round (origin 'approval') in progress ends, kept as history.
 */
export async function startRound(mediaId: number, input: RoundInput, userId: string, origin: AuditOrigin, now = Date.now()): Promise<RoundBoard> {
  const item = await requireItem(mediaId);
  const candidates = await reviewerCandidates(mediaId);
  const allowed = (ref: ReviewerRef) => candidates.some((c) => c.kind === ref.kind && String(c.id) === String(ref.kind === 'staff' ? ref.userId : ref.clientUserId));
  input.stages.forEach((stage, i) => {
    const where = `stages.${i}`;
    const seen: ReviewerRef[] = [];
    for (const ref of stage.reviewers) {
      if (!allowed(ref)) throw new HttpError(400, `${where}.reviewers: ${ref.kind === 'staff' ? 'a staff reviewer must be active and see the media library' : 'a client reviewer must be an active login of a client this item is assigned to'}`);
      if (seen.some((s) => sameRef(s, ref))) throw new HttpError(400, `${where}.reviewers: the same person is named twice`);
      seen.push(ref);
    }
    if (stage.rule === 'approver') {
      if (!stage.approver) throw new HttpError(400, `${where}.approver: an 'approver' stage names which reviewer decides`);
      if (!stage.reviewers.some((r) => sameRef(r, stage.approver!))) throw new HttpError(400, `${where}.approver: the approver must be one of the stage's reviewers`);
    } else if (stage.approver) throw new HttpError(400, `${where}.approver: only an 'approver' stage names one`);
    if (stage.dueAt && Date.parse(stage.dueAt) <= now) throw new HttpError(400, `${where}.dueAt: the due date has passed`);
  });
  const version = await currentVersionOf(db, item.storageKey);
  const roundId = await db.transaction(async (tx) => {
    const [active] = await tx
      .select({ id: reviewRounds.id, origin: reviewRounds.origin })
      .from(reviewRounds)
      .where(and(eq(reviewRounds.mediaId, mediaId), inArray(reviewRounds.status, ['in_review', 'changes_requested'])))
      .limit(1);
    if (active?.origin === 'staff') throw conflict(ROUND_ACTIVE);
    if (active) await tx.update(reviewRounds).set({ status: 'cancelled', closedAt: new Date(now), updatedAt: new Date(now) }).where(eq(reviewRounds.id, active.id));
    const [round] = await tx.insert(reviewRounds).values({ mediaId, name: input.name, origin: 'staff', createdBy: userId }).returning({ id: reviewRounds.id });
    for (const [i, stage] of input.stages.entries()) {
      const [s] = await tx
        .insert(reviewStages)
        .values({
          roundId: round!.id,
          position: i + 1,
          name: stage.name,
          rule: stage.rule,
          dueAt: stage.dueAt ? new Date(stage.dueAt) : null,
          status: i === 0 ? 'open' : 'waiting',
          openedAt: i === 0 ? new Date(now) : null,
        })
        .returning({ id: reviewStages.id });
      const rows = await tx
        .insert(reviewStageReviewers)
        .values(stage.reviewers.map((r) => (r.kind === 'staff' ? { stageId: s!.id, kind: 'staff' as const, userId: r.userId } : { stageId: s!.id, kind: 'client' as const, clientUserId: r.clientUserId })))
        .returning({ id: reviewStageReviewers.id, userId: reviewStageReviewers.userId, clientUserId: reviewStageReviewers.clientUserId });
      if (stage.approver) {
        const a = stage.approver;
        const approver = rows.find((r) => (a.kind === 'staff' ? r.userId === a.userId : r.clientUserId === a.clientUserId))!;
        await tx.update(reviewStages).set({ approverId: approver.id }).where(eq(reviewStages.id, s!.id));
      }
    }
    // A round starts on the current version undecided: its approval follows the round from now on.
    await tx.update(mediaVersions).set({ approvalStatus: 'in_review', approvalNote: null, approvalBy: null, approvalGuest: null, approvalLinkId: null, approvalAt: null }).where(and(eq(mediaVersions.id, version.id), eq(mediaVersions.approvalLocked, false)));
    await auditIn(tx, origin, { kind: 'round.started', object: { type: 'media', id: mediaId, name: item.title }, detail: { round: round!.id, name: input.name, stages: input.stages.map((s) => s.name) } });
    return round!.id;
  });
  await callOpenStage(roundId, 'stage_open', 'The studio');
  return (await boardOf(roundId, { kind: 'staff', userId }))!;
}

/** Cancels the item's round in progress (kept as history; the version's approval stays as it is). */
export async function cancelRound(mediaId: number, origin: AuditOrigin): Promise<void> {
  const item = await requireItem(mediaId);
  await db.transaction(async (tx) => {
    const ended = await tx
      .update(reviewRounds)
      .set({ status: 'cancelled', closedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(reviewRounds.mediaId, mediaId), eq(reviewRounds.origin, 'staff'), inArray(reviewRounds.status, ['in_review', 'changes_requested'])))
      .returning({ id: reviewRounds.id });
    if (!ended.length) throw notFound('This item has no review round in progress.');
    await auditIn(tx, origin, { kind: 'round.cancelled', object: { type: 'media', id: mediaId, name: item.title }, detail: { round: ended[0]!.id } });
  });
}

// ---------------------------------------------------------------------------------------------
// Deciding

/** The studio's round that decides the item now: in progress, or the newest finished one. */
async function staffRoundOf(r: Reader, mediaId: number) {
  const [round] = await r
    .select()
    .from(reviewRounds)
    .where(and(eq(reviewRounds.mediaId, mediaId), ne(reviewRounds.status, 'cancelled')))
    .orderBy(desc(reviewRounds.id))
    .limit(1);
  return round?.origin === 'staff' ? round : null;
}

/** Whether the studio's round decides this item (then the client approval endpoints defer to it). */
export async function inStaffRound(mediaId: number): Promise<boolean> {
  return !!(await staffRoundOf(db, mediaId));
}

function reviewerMatch(viewer: Viewer) {
  return viewer.kind === 'staff' ? eq(reviewStageReviewers.userId, viewer.userId) : eq(reviewStageReviewers.clientUserId, viewer.clientUserId);
}

/**
 * A reviewer's decision on the current version (`input.version`: the number they looked at).
 * Refused: not in a round (404), a newer version (409), a locked decision (409), a finished round
 * (409), not a reviewer of the open stage (403, naming the open stage when theirs is later or the
 * round has moved past theirs). Runs in one write transaction, so two decisions at once are
 * counted one after the other and a stage closes once.
 */
export async function decide(mediaId: number, viewer: Viewer, input: DecisionInput, origin: AuditOrigin, actorName: string): Promise<RoundBoard> {
  const item = await requireItem(mediaId);
  const result = await db.transaction(async (tx) => {
    const round = await staffRoundOf(tx, mediaId);
    if (!round) throw notFound(NO_ROUND);
    const version = await currentVersionOf(tx, item.storageKey);
    if (input.version !== version.number) throw conflict(staleVersionMessage(version.number));
    if (round.status === 'approved') throw conflict(ROUND_FINISHED);
    if (version.locked) throw conflict(LOCKED_MESSAGE);
    const stages = await tx.select().from(reviewStages).where(eq(reviewStages.roundId, round.id)).orderBy(asc(reviewStages.position));
    const open = stages.find((s) => s.status === 'open');
    if (!open) throw conflict(ROUND_FINISHED);
    const mine = await tx
      .select({ id: reviewStageReviewers.id, stageId: reviewStageReviewers.stageId })
      .from(reviewStageReviewers)
      .where(and(inArray(reviewStageReviewers.stageId, stages.map((s) => s.id)), reviewerMatch(viewer)));
    const here = mine.find((m) => m.stageId === open.id);
    if (!here) {
      const other = stages.find((s) => mine.some((m) => m.stageId === s.id));
      if (!other) throw new HttpError(403, NOT_A_REVIEWER);
      throw new HttpError(403, other.position > open.position ? notYourStage(open.name) : stageClosed(other.name));
    }
    const now = new Date();
    await tx
      .update(reviewDecisions)
      .set({ replacedAt: now })
      .where(and(eq(reviewDecisions.reviewerId, here.id), eq(reviewDecisions.versionId, version.id), isNull(reviewDecisions.replacedAt)));
    await tx.insert(reviewDecisions).values({ stageId: open.id, reviewerId: here.id, versionId: version.id, decision: input.decision, note: input.note, createdAt: now });
    // Deciding is having looked, whichever screen it came from.
    await tx.update(reviewStageReviewers).set({ openedAt: sql`coalesce(${reviewStageReviewers.openedAt}, ${now.getTime()})` }).where(eq(reviewStageReviewers.id, here.id));
    const outcome = await settleStage(tx, round.id, open, version.id, now);
    const status = outcome === 'changes' ? 'changes_requested' : outcome === 'approved' ? 'approved' : 'in_review';
    await tx
      .update(reviewRounds)
      .set({ status, updatedAt: now, closedAt: status === 'approved' ? now : null })
      .where(eq(reviewRounds.id, round.id));
    await tx
      .update(mediaVersions)
      .set({
        approvalStatus: status === 'approved' ? 'approved' : status,
        approvalNote: status === 'in_review' ? null : input.note || null,
        approvalAt: status === 'in_review' ? null : now,
        approvalBy: status !== 'in_review' && viewer.kind === 'client' ? viewer.clientUserId : null,
        approvalGuest: null,
        approvalLinkId: null,
      })
      .where(eq(mediaVersions.id, version.id));
    await auditIn(tx, origin, {
      kind: 'round.decided',
      object: { type: 'media', id: mediaId, name: item.title },
      detail: { round: round.id, stage: open.name, decision: input.decision, version: version.number, outcome },
    });
    return { round: round.id, outcome, stage: open.name, version: version.number };
  });
  if (result.outcome === 'advanced') await callOpenStage(result.round, 'stage_open', actorName);
  // Staff hear of a client's decision as they did of a client approval (the bell and email).
  if (viewer.kind === 'client') {
    await recordEvent({ kind: 'approval', mediaId, versionNumber: result.version, actor: actorName, via: 'client', detail: `${result.stage}: ${decisionSummary(input.decision, input.note)}` });
  }
  return (await boardOf(result.round, viewer))!;
}

/**
 * After a decision: the open stage's rule on the decisions standing on this version. Met: it
 * closes and the next opens ('advanced'), or it was the last ('approved'). 'changes' when
 * anyone asked for changes; 'open' otherwise.
 */
async function settleStage(
  tx: Tx,
  roundId: number,
  stage: { id: number; position: number; rule: 'all' | 'any' | 'approver'; approverId: number | null },
  versionId: number,
  now: Date,
): Promise<'open' | 'changes' | 'advanced' | 'approved'> {
  const reviewers = await tx.select({ id: reviewStageReviewers.id }).from(reviewStageReviewers).where(eq(reviewStageReviewers.stageId, stage.id));
  const standing = await tx
    .select({ reviewerId: reviewDecisions.reviewerId, decision: reviewDecisions.decision })
    .from(reviewDecisions)
    .where(and(eq(reviewDecisions.stageId, stage.id), eq(reviewDecisions.versionId, versionId), isNull(reviewDecisions.replacedAt)));
  const outcome = stageOutcome(
    stage.rule,
    reviewers.map((r) => r.id),
    stage.approverId,
    new Map(standing.map((d) => [d.reviewerId, d.decision as Decision])),
  );
  if (outcome !== 'met') return outcome;
  const closed = await tx
    .update(reviewStages)
    .set({ status: 'closed', closedAt: now, closedVersionId: versionId })
    .where(and(eq(reviewStages.id, stage.id), eq(reviewStages.status, 'open')))
    .returning({ id: reviewStages.id });
  if (!closed.length) throw conflict(ROUND_FINISHED);
  const next = await tx
    .update(reviewStages)
    .set({ status: 'open', openedAt: now })
    .where(and(eq(reviewStages.roundId, roundId), eq(reviewStages.position, stage.position + 1), eq(reviewStages.status, 'waiting')))
    .returning({ id: reviewStages.id });
  return next.length ? 'advanced' : 'approved';
}

/**
 * A new version of the item (in the transaction that adds it): the open stage's decisions stay
 * as history on the older version and no longer count; a round sent back for changes is in
 * review again; a finished round reopens its last stage (whoever signs off last signs off the cut
 * that ships). The reviewers of the open stage have not opened the new version yet.
 */
export async function roundsAfterNewVersion(tx: Tx, mediaId: number, now = new Date()): Promise<void> {
  const [round] = await tx
    .select()
    .from(reviewRounds)
    .where(and(eq(reviewRounds.mediaId, mediaId), ne(reviewRounds.status, 'cancelled')))
    .orderBy(desc(reviewRounds.id))
    .limit(1);
  if (!round) return;
  if (round.status === 'approved') {
    if (round.origin === 'staff') {
      const [last] = await tx.select({ id: reviewStages.id }).from(reviewStages).where(eq(reviewStages.roundId, round.id)).orderBy(desc(reviewStages.position)).limit(1);
      if (last) await tx.update(reviewStages).set({ status: 'open', openedAt: now, closedAt: null, closedVersionId: null }).where(eq(reviewStages.id, last.id));
    }
  }
  await tx.update(reviewRounds).set({ status: 'in_review', closedAt: null, updatedAt: now }).where(eq(reviewRounds.id, round.id));
  const [open] = await tx.select({ id: reviewStages.id }).from(reviewStages).where(and(eq(reviewStages.roundId, round.id), eq(reviewStages.status, 'open'))).limit(1);
  if (open) await tx.update(reviewStageReviewers).set({ openedAt: null }).where(eq(reviewStageReviewers.stageId, open.id));
}

/** The viewer opened the item: recorded once per version for a reviewer of the open stage. */
export async function noteOpened(mediaId: number, viewer: Viewer): Promise<void> {
  const round = await staffRoundOf(db, mediaId);
  if (!round || round.status === 'approved') return;
  await db
    .update(reviewStageReviewers)
    .set({ openedAt: new Date() })
    .where(
      and(
        reviewerMatch(viewer),
        isNull(reviewStageReviewers.openedAt),
        inArray(
          reviewStageReviewers.stageId,
          db.select({ id: reviewStages.id }).from(reviewStages).where(and(eq(reviewStages.roundId, round.id), eq(reviewStages.status, 'open'))),
        ),
      ),
    );
}

// ---------------------------------------------------------------------------------------------
// Calling reviewers

export const REMIND_EVERY_MS = 12 * 3600_000;
export const REMIND_TOO_SOON = 'This reviewer was reminded less than 12 hours ago.';

/** The open stage's reviewers who have not decided on the current version (`only`: one of them). */
async function undecidedOfOpenStage(roundId: number, only?: number) {
  const [round] = await db.select({ mediaId: reviewRounds.mediaId, name: reviewRounds.name, status: reviewRounds.status }).from(reviewRounds).where(eq(reviewRounds.id, roundId)).limit(1);
  if (!round || round.status === 'approved' || round.status === 'cancelled') return null;
  const item = await requireItem(round.mediaId);
  const version = await currentVersionOf(db, item.storageKey);
  const [stage] = await db.select().from(reviewStages).where(and(eq(reviewStages.roundId, roundId), eq(reviewStages.status, 'open'))).limit(1);
  if (!stage) return null;
  const reviewers = await db
    .select({ id: reviewStageReviewers.id, userId: reviewStageReviewers.userId, clientUserId: reviewStageReviewers.clientUserId, remindedAt: reviewStageReviewers.remindedAt })
    .from(reviewStageReviewers)
    .where(
      and(
        eq(reviewStageReviewers.stageId, stage.id),
        only != null ? eq(reviewStageReviewers.id, only) : undefined,
        sql`not exists (select 1 from ${reviewDecisions} d where d.reviewer_id = ${reviewStageReviewers.id} and d.version_id = ${version.id} and d.replaced_at is null)`,
      ),
    );
  return { round, version, stage, reviewers };
}

async function callOpenStage(roundId: number, why: 'stage_open' | 'reminder', actor: string, only?: number): Promise<void> {
  const open = await undecidedOfOpenStage(roundId, only);
  if (!open || !open.reviewers.length) return;
  await callReviewers({
    mediaId: open.round.mediaId,
    versionNumber: open.version.number,
    roundName: open.round.name,
    stageName: open.stage.name,
    dueAt: open.stage.dueAt,
    staffIds: open.reviewers.flatMap((r) => (r.userId ? [r.userId] : [])),
    clientUserIds: open.reviewers.flatMap((r) => (r.clientUserId != null ? [r.clientUserId] : [])),
    why,
    actor,
  });
}

/**
 * "Remind" (edit:media): tells one reviewer of the open stage who has not decided on the current
 * version again; at most once in 12 hours per reviewer (429), claimed in one statement so two
 * clicks at once send one reminder.
 */
export async function remindReviewer(mediaId: number, reviewerId: number, actor: string, now = Date.now()): Promise<void> {
  await requireItem(mediaId);
  const round = await staffRoundOf(db, mediaId);
  if (!round) throw notFound(NO_ROUND);
  const open = await undecidedOfOpenStage(round.id, reviewerId);
  if (!open) throw conflict(ROUND_FINISHED);
  if (!open.reviewers.length) throw conflict('Only a reviewer of the open stage who has not decided yet can be reminded.');
  const claimed = await db
    .update(reviewStageReviewers)
    .set({ remindedAt: new Date(now) })
    .where(and(eq(reviewStageReviewers.id, reviewerId), sql`(${reviewStageReviewers.remindedAt} is null or ${reviewStageReviewers.remindedAt} <= ${now - REMIND_EVERY_MS})`))
    .returning({ id: reviewStageReviewers.id });
  if (!claimed.length) throw new HttpError(429, REMIND_TOO_SOON);
  await callOpenStage(round.id, 'reminder', actor, reviewerId);
}

// ---------------------------------------------------------------------------------------------
// The status board

/** The item's round as its status board: the one in progress, else the newest (null: none). */
export async function roundBoard(mediaId: number, viewer: Viewer): Promise<RoundBoard | null> {
  await requireItem(mediaId);
  const [round] = await db
    .select({ id: reviewRounds.id })
    .from(reviewRounds)
    .where(eq(reviewRounds.mediaId, mediaId))
    .orderBy(sql`${reviewRounds.status} in ('in_review', 'changes_requested') desc`, sql`${reviewRounds.status} = 'cancelled'`, desc(reviewRounds.id))
    .limit(1);
  return round ? boardOf(round.id, viewer) : null;
}

async function boardOf(roundId: number, viewer: Viewer, now = Date.now()): Promise<RoundBoard | null> {
  const [round] = await db.select().from(reviewRounds).where(eq(reviewRounds.id, roundId)).limit(1);
  if (!round) return null;
  const item = await requireItem(round.mediaId);
  const version = await currentVersionOf(db, item.storageKey);
  const stages = await db.select().from(reviewStages).where(eq(reviewStages.roundId, roundId)).orderBy(asc(reviewStages.position));
  const stageIds = stages.map((s) => s.id);
  const reviewers = stageIds.length
    ? await db
        .select({
          id: reviewStageReviewers.id,
          stageId: reviewStageReviewers.stageId,
          kind: reviewStageReviewers.kind,
          userId: reviewStageReviewers.userId,
          clientUserId: reviewStageReviewers.clientUserId,
          guestName: reviewStageReviewers.guestName,
          openedAt: reviewStageReviewers.openedAt,
          username: users.username,
          displayName: users.displayName,
          login: clientUsers.username,
          loginClientId: clientUsers.clientId,
        })
        .from(reviewStageReviewers)
        .leftJoin(users, eq(users.id, reviewStageReviewers.userId))
        .leftJoin(clientUsers, eq(clientUsers.id, reviewStageReviewers.clientUserId))
        .where(inArray(reviewStageReviewers.stageId, stageIds))
        .orderBy(asc(reviewStageReviewers.id))
    : [];
  const decisions = stageIds.length
    ? await db
        .select({ stageId: reviewDecisions.stageId, reviewerId: reviewDecisions.reviewerId, versionId: reviewDecisions.versionId, decision: reviewDecisions.decision, note: reviewDecisions.note, at: reviewDecisions.createdAt })
        .from(reviewDecisions)
        .where(and(inArray(reviewDecisions.stageId, stageIds), isNull(reviewDecisions.replacedAt)))
    : [];
  const versionNumbers = new Map(
    (await db.select({ id: mediaVersions.id, number: mediaVersions.number }).from(mediaVersions).where(eq(mediaVersions.mediaId, round.mediaId))).map((v) => [v.id, v.number]),
  );
  const isMe = (r: (typeof reviewers)[number]) => (viewer.kind === 'staff' ? r.userId === viewer.userId : r.clientUserId === viewer.clientUserId);
  // A client sees the names of their own client's logins only: never the studio's people or
  // another client's (they would not learn them anywhere else).
  const shownName = (r: (typeof reviewers)[number]): string => {
    if (r.kind === 'staff') return viewer.kind === 'staff' ? nameOf({ username: r.username ?? 'Former staff', displayName: r.displayName ?? '' }) : 'The studio';
    if (r.kind === 'guest') return viewer.kind === 'staff' ? `${r.guestName} (link guest)` : 'A guest reviewer';
    if (r.clientUserId == null) return 'The client';
    if (viewer.kind === 'client' && r.loginClientId !== viewer.clientId) return 'Another reviewer';
    return r.login ?? 'Former login';
  };
  const out: BoardStage[] = stages.map((s) => {
    // Only a stage in progress counts decisions on the current version; a closed one shows those on the version it closed on.
    const countedVersion = s.status === 'closed' ? s.closedVersionId : version.id;
    const mine = reviewers.filter((r) => r.stageId === s.id);
    return {
      id: s.id,
      position: s.position,
      name: s.name,
      rule: s.rule,
      status: s.status,
      dueAt: s.dueAt?.toISOString() ?? null,
      overdue: s.status !== 'closed' && round.status !== 'cancelled' && !!s.dueAt && s.dueAt.getTime() < now,
      openedAt: s.openedAt?.toISOString() ?? null,
      closedAt: s.closedAt?.toISOString() ?? null,
      closedOnVersion: s.closedVersionId != null ? (versionNumbers.get(s.closedVersionId) ?? null) : null,
      reviewers: mine.map((r) => {
        const d = decisions.find((x) => x.reviewerId === r.id && x.versionId === countedVersion);
        return {
          id: r.id,
          kind: r.kind,
          name: shownName(r),
          decision: d ? { decision: d.decision, note: d.note, at: d.at.toISOString() } : null,
          openedAt: r.openedAt?.toISOString() ?? null,
          isApprover: s.approverId === r.id,
          isMe: isMe(r),
        };
      }),
      earlierDecisions: decisions.filter((x) => x.stageId === s.id && x.versionId !== countedVersion).length,
    };
  });
  const open = out.find((s) => s.status === 'open');
  return {
    id: round.id,
    name: round.name,
    origin: round.origin,
    status: round.status,
    currentVersion: version.number,
    createdAt: round.createdAt.toISOString(),
    closedAt: round.closedAt?.toISOString() ?? null,
    stages: out,
    notes: viewer.kind === 'staff' ? await noteCounts(round.mediaId, version.id) : null,
    canDecide: round.origin === 'staff' && round.status !== 'approved' && round.status !== 'cancelled' && !!open?.reviewers.some((r) => r.isMe) && !version.locked,
  };
}

/** The version's notes (clients', staff's, link guests') and how many are tasks and done. */
async function noteCounts(mediaId: number, versionId: number): Promise<{ total: number; tasks: number; tasksDone: number }> {
  const [row] = await db.all<{ total: number; tasks: number; done: number }>(sql`
    SELECT
      (SELECT count(*) FROM ${timelineNotes} WHERE ${timelineNotes.mediaId} = ${mediaId} AND ${timelineNotes.versionId} = ${versionId})
      + (SELECT count(*) FROM ${shareComments} WHERE ${shareComments.mediaId} = ${mediaId} AND ${shareComments.versionId} = ${versionId} AND ${shareComments.kind} = 'note') AS total,
      (SELECT count(*) FROM ${noteTasks} t
        LEFT JOIN ${timelineNotes} n ON n.id = t.timeline_note_id
        LEFT JOIN ${shareComments} c ON c.id = t.share_comment_id
        WHERE coalesce(n.version_id, c.version_id) = ${versionId}) AS tasks,
      (SELECT count(*) FROM ${noteTasks} t
        LEFT JOIN ${timelineNotes} n ON n.id = t.timeline_note_id
        LEFT JOIN ${shareComments} c ON c.id = t.share_comment_id
        WHERE coalesce(n.version_id, c.version_id) = ${versionId} AND t.state = 'done') AS done`);
  return { total: Number(row?.total ?? 0), tasks: Number(row?.tasks ?? 0), tasksDone: Number(row?.done ?? 0) };
}

export const decisionSummary = (d: Decision, note: string) => (note ? `${DECISION_LABELS[d]}: ${note}` : DECISION_LABELS[d]);
