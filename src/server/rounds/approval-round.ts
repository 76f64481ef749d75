// The client approval of issue 16 kept as a one-stage round (issue 57): "Client approval", any
// one of the item's client logins or link guests decides, and the newest decision stands (the
// client may change it until staff lock it, as before). Written in the transaction that writes
// the version's approval columns, so the round's history and the version never disagree.
import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { reviewDecisions, reviewRounds, reviewStageReviewers, reviewStages } from '../../db/schema.ts';
import type { Decider } from '../review/approval-messages.ts';
import { HttpError } from '../http.ts';

export const IN_A_ROUND = 'This cut is in the studio’s review round: its reviewers decide.';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

export const APPROVAL_ROUND_NAME = 'Client approval';

export async function recordApprovalDecision(
  tx: Tx,
  version: { id: number; mediaId: number },
  input: { status: 'approved' | 'changes_requested'; note: string },
  by: Decider,
  now = new Date(),
): Promise<void> {
  const [latest] = await tx
    .select({ id: reviewRounds.id, origin: reviewRounds.origin })
    .from(reviewRounds)
    .where(and(eq(reviewRounds.mediaId, version.mediaId), ne(reviewRounds.status, 'cancelled')))
    .orderBy(desc(reviewRounds.id))
    .limit(1);
  // A round the studio started meanwhile decides from now on.
  if (latest?.origin === 'staff') throw new HttpError(409, IN_A_ROUND);
  let stageId: number;
  let roundId: number;
  if (latest?.origin === 'approval') {
    roundId = latest.id;
    const [stage] = await tx.select({ id: reviewStages.id }).from(reviewStages).where(eq(reviewStages.roundId, roundId)).limit(1);
    stageId = stage!.id;
  } else {
    const [round] = await tx.insert(reviewRounds).values({ mediaId: version.mediaId, name: APPROVAL_ROUND_NAME, origin: 'approval', createdAt: now }).returning({ id: reviewRounds.id });
    roundId = round!.id;
    const [stage] = await tx.insert(reviewStages).values({ roundId, position: 1, name: APPROVAL_ROUND_NAME, rule: 'any', status: 'open', openedAt: now }).returning({ id: reviewStages.id });
    stageId = stage!.id;
  }
  const who =
    'clientUserId' in by
      ? and(eq(reviewStageReviewers.stageId, stageId), eq(reviewStageReviewers.clientUserId, by.clientUserId))
      : and(eq(reviewStageReviewers.stageId, stageId), eq(reviewStageReviewers.linkId, by.linkId), eq(reviewStageReviewers.guestName, by.guestName));
  let [reviewer] = await tx.select({ id: reviewStageReviewers.id }).from(reviewStageReviewers).where(who).limit(1);
  if (!reviewer) {
    [reviewer] = await tx
      .insert(reviewStageReviewers)
      .values('clientUserId' in by ? { stageId, kind: 'client', clientUserId: by.clientUserId, openedAt: now } : { stageId, kind: 'guest', guestName: by.guestName, linkId: by.linkId, openedAt: now })
      .returning({ id: reviewStageReviewers.id });
  }
  await tx
    .update(reviewDecisions)
    .set({ replacedAt: now })
    .where(and(eq(reviewDecisions.reviewerId, reviewer!.id), eq(reviewDecisions.versionId, version.id), isNull(reviewDecisions.replacedAt)));
  await tx.insert(reviewDecisions).values({
    stageId,
    reviewerId: reviewer!.id,
    versionId: version.id,
    decision: input.status === 'approved' ? 'approve' : 'request_changes',
    note: input.note,
    createdAt: now,
  });
  await tx.update(reviewRounds).set({ status: input.status, updatedAt: now }).where(eq(reviewRounds.id, roundId));
}
