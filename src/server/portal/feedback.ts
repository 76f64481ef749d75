// A client user's ratings and comments on their media (001 §3 Client feedback).
import { desc, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { clientFeedback, clientUsers } from '../../db/schema.ts';
import type { ClientFeedback, FeedbackInput } from '../../shared/schemas/portal.ts';
import { getAssignedMedia } from './media.ts';

interface ClientUserRef {
  id: number;
  clientId: number;
  username: string;
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
    })
    .from(clientFeedback)
    .innerJoin(clientUsers, eq(clientUsers.id, clientFeedback.clientUserId))
    .where(eq(clientFeedback.clientUserId, clientUserId))
    .orderBy(desc(clientFeedback.createdAt), desc(clientFeedback.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

export async function addFeedback(user: ClientUserRef, input: FeedbackInput): Promise<ClientFeedback> {
  await getAssignedMedia(user.clientId, input.mediaId);
  const [row] = await db
    .insert(clientFeedback)
    .values({ mediaId: input.mediaId, clientUserId: user.id, feedbackText: input.feedbackText, rating: input.rating })
    .returning();
  return {
    id: row!.id,
    mediaId: row!.mediaId,
    clientUsername: user.username,
    feedbackText: row!.feedbackText,
    rating: row!.rating,
    createdAt: row!.createdAt.toISOString(),
  };
}
