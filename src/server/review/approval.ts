// A client's decision on the current version of their media (issue 16): "Approved" or
// "Changes requested" (with a note). It records who and when, and can be changed until staff
// lock it; a new version starts again at "In review".
import { and, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { mediaVersions } from '../../db/schema.ts';
import { conflict } from '../http.ts';
import { LOCKED_MESSAGE, staleVersionMessage } from './approval-messages.ts';
import { decide, inStaffRound } from '../rounds/rounds.ts';
import { recordApprovalDecision } from '../rounds/approval-round.ts';
import type { ClientPrincipal } from '../auth/principals.ts';
import { getAssignedMedia } from '../portal/media.ts';
import type { ApprovalInput, MediaVersion } from '../../shared/schemas/review.ts';
import { currentVersion, listVersions } from './versions.ts';
import { APPROVAL_LABELS } from '../../shared/schemas/review.ts';
import { recordEvent } from '../notifications/index.ts';
import { clientActor } from '../notifications/actors.ts';
import { auditIn, type AuditOrigin } from '../audit/record.ts';

export { LOCKED_MESSAGE, staleVersionMessage } from './approval-messages.ts';

export type { Decider } from './approval-messages.ts';
import type { Decider } from './approval-messages.ts';

/**
 * Writes a decision on a version, then tells staff. The lock is checked in the same statement
 * that writes, so a lock made meanwhile wins (409).
 */
export async function writeDecision(
  version: { id: number; mediaId: number; number: number },
  input: { status: 'approved' | 'changes_requested'; note: string; version: number },
  by: Decider,
  actor: string,
  via: 'client' | 'link',
  origin: AuditOrigin,
): Promise<void> {
  // The version they looked at must still be the current one.
  if (input.version !== version.number) throw conflict(staleVersionMessage(version.number));
  const who =
    'clientUserId' in by
      ? { approvalBy: by.clientUserId, approvalGuest: null, approvalLinkId: null }
      : { approvalBy: null, approvalGuest: by.guestName, approvalLinkId: by.linkId };
  await db.transaction(async (tx) => {
    const changed = await tx
      .update(mediaVersions)
      .set({ approvalStatus: input.status, approvalNote: input.note || null, approvalAt: new Date(), ...who })
      .where(and(eq(mediaVersions.id, version.id), eq(mediaVersions.approvalLocked, false)))
      .returning({ id: mediaVersions.id });
    if (!changed.length) throw conflict(LOCKED_MESSAGE);
    // Also refuses (409, all of it undone) once the studio runs a review round on the item (issue 57).
    await recordApprovalDecision(tx, version, input, by);
    await auditIn(tx, origin, { kind: 'approval.decided', object: { type: 'media', id: version.mediaId }, detail: { status: input.status, version: version.number, via } });
  });
  await recordEvent({
    kind: 'approval',
    mediaId: version.mediaId,
    versionNumber: version.number,
    actor,
    via,
    detail: input.note ? `${APPROVAL_LABELS[input.status]}: ${input.note}` : APPROVAL_LABELS[input.status],
  });
}

export async function setApproval(user: ClientPrincipal, mediaId: number, input: ApprovalInput, origin: AuditOrigin): Promise<MediaVersion> {
  const item = await getAssignedMedia(user.clientId, mediaId);
  const current = await currentVersion(item);
  if (await inStaffRound(mediaId)) {
    // The studio's round decides: the client's approval is their decision in it, if they are a reviewer of its open stage.
    const decision = input.status === 'approved' ? 'approve' : 'request_changes';
    await decide(mediaId, { kind: 'client', clientUserId: user.id, clientId: user.clientId }, { decision, note: input.note, version: input.version }, origin, clientActor(user));
    return (await listVersions(item, user.id)).find((v) => v.id === current.id)!;
  }
  await writeDecision({ id: current.id, mediaId, number: current.number }, input, { clientUserId: user.id }, clientActor(user), 'client', origin);
  return (await listVersions(item, user.id)).find((v) => v.id === current.id)!;
}
