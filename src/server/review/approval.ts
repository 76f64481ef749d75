// A client's decision on the current version of their media (issue 16): "Approved" or
// "Changes requested" (with a note). It records who and when, and can be changed until staff
// lock it; a new version starts again at "In review".
import { and, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { mediaVersions } from '../../db/schema.ts';
import { conflict } from '../http.ts';
import type { ClientPrincipal } from '../auth/principals.ts';
import { getAssignedMedia } from '../portal/media.ts';
import type { ApprovalInput, MediaVersion } from '../../shared/schemas/review.ts';
import { currentVersion, listVersions } from './versions.ts';
import { APPROVAL_LABELS } from '../../shared/schemas/review.ts';
import { recordEvent } from '../notifications/index.ts';
import { clientActor } from '../notifications/actors.ts';
import { auditIn, type AuditOrigin } from '../audit/record.ts';

export const LOCKED_MESSAGE = 'The studio has locked this decision. Contact them if it needs to change.';
export const staleVersionMessage = (current: number) => `A newer version (v${current}) has been added since you opened this one: review it first.`;

/** Who decided: a client login, or a share-link visitor by the name they typed. */
export type Decider = { clientUserId: number } | { guestName: string; linkId: number };

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
  await writeDecision({ id: current.id, mediaId, number: current.number }, input, { clientUserId: user.id }, clientActor(user), 'client', origin);
  return (await listVersions(item, user.id)).find((v) => v.id === current.id)!;
}
