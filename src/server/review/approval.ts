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

export const LOCKED_MESSAGE = 'The studio has locked this decision. Contact them if it needs to change.';

export async function setApproval(user: ClientPrincipal, mediaId: number, input: ApprovalInput): Promise<MediaVersion> {
  const item = await getAssignedMedia(user.clientId, mediaId);
  const current = await currentVersion(item);
  if (input.version != null && input.version !== current.number) {
    throw conflict(`A newer version (v${current.number}) has been added since you opened this one: review it first.`);
  }
  // The lock is checked in the same statement that writes, so a lock made meanwhile wins.
  const changed = await db
    .update(mediaVersions)
    .set({ approvalStatus: input.status, approvalNote: input.note || null, approvalBy: user.id, approvalAt: new Date(), approvalGuest: null, approvalLinkId: null })
    .where(and(eq(mediaVersions.id, current.id), eq(mediaVersions.approvalLocked, false)))
    .returning({ id: mediaVersions.id });
  if (!changed.length) throw conflict(LOCKED_MESSAGE);
  await recordEvent({
    kind: 'approval',
    mediaId,
    versionNumber: current.number,
    actor: clientActor(user),
    via: 'client',
    detail: input.note ? `${APPROVAL_LABELS[input.status]}: ${input.note}` : APPROVAL_LABELS[input.status],
  });
  return (await listVersions(item, user.id)).find((v) => v.id === current.id)!;
}
