// A client user's ratings and comments on their media (001 §3 Client feedback), each on the
// version it was given on (issue 16), with the replies under it.
import { desc, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientFeedback, clientUsers, mediaVersions } from '../../db/schema.ts';
import type { ClientFeedback, FeedbackInput } from '../../shared/schemas/portal.ts';
import { repliesFor } from '../review/replies.ts';
import { getAssignedMedia } from './media.ts';
import { reviewedVersion } from './reviewed-version.ts';
import { recordEvent } from '../notifications/index.ts';
import { clientActor } from '../notifications/actors.ts';

interface ClientUserRef {
  id: number;
  clientId: number;
  username: string;
  /** The client's name, for the studio's notification. */
  name?: string;
}

export async function listOwnFeedback(clientUserId: number): Promise<ClientFeedback[]> {
  const rows = await db
    .select({
      id: clientFeedback.id,
      mediaId: clientFeedback.mediaId,
      clientUsername: clientUsers.username,
      feedbackText: clientFeedback.feedbackText,
      rating: clientFeedback.rating,
      createdAt: clientFeedback.createdAt,
      versionId: clientFeedback.versionId,
      versionNumber: mediaVersions.number,
    })
    .from(clientFeedback)
    .innerJoin(clientUsers, eq(clientUsers.id, clientFeedback.clientUserId))
    .leftJoin(mediaVersions, eq(mediaVersions.id, clientFeedback.versionId))
    .where(eq(clientFeedback.clientUserId, clientUserId))
    .orderBy(desc(clientFeedback.createdAt), desc(clientFeedback.id));
  const replies = await repliesFor('feedback', rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), replies: replies.get(r.id) ?? [] }));
}

export async function addFeedback(user: ClientUserRef, input: FeedbackInput): Promise<ClientFeedback> {
  const item = await getAssignedMedia(user.clientId, input.mediaId);
  const version = await reviewedVersion(item, input.versionId);
  const [row] = await db
    .insert(clientFeedback)
    .values({ mediaId: input.mediaId, clientUserId: user.id, feedbackText: input.feedbackText, rating: input.rating, versionId: version.id })
    .returning();
  await recordEvent({
    kind: 'feedback',
    mediaId: input.mediaId,
    versionNumber: version.number,
    actor: clientActor(user),
    via: 'client',
    detail: `Rating: ${row!.rating} out of 5\n\n${row!.feedbackText}`,
  });
  return {
    id: row!.id,
    mediaId: row!.mediaId,
    clientUsername: user.username,
    feedbackText: row!.feedbackText,
    rating: row!.rating,
    createdAt: row!.createdAt.toISOString(),
    versionId: version.id,
    versionNumber: version.number,
    replies: [],
  };
}
