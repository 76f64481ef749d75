// Who hears of a gallery's changes (issue 53, the live events of migration 0024): the clients it
// is shared with and its links that are neither revoked nor expired, read when each event is
// sent, as the item audiences are (src/server/live/audience.ts).
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { galleryClients, shareLinks } from '../../db/schema.ts';

export async function galleryAudience(galleryId: number, now = new Date()): Promise<{ clients: Set<number>; links: number[] }> {
  const [clients, links] = await Promise.all([
    db.select({ id: galleryClients.clientId }).from(galleryClients).where(eq(galleryClients.galleryId, galleryId)),
    db
      .select({ id: shareLinks.id })
      .from(shareLinks)
      .where(and(eq(shareLinks.galleryId, galleryId), isNull(shareLinks.revokedAt), or(isNull(shareLinks.expiresAt), gt(shareLinks.expiresAt, now)))),
  ]);
  return { clients: new Set(clients.map((c) => c.id)), links: links.map((l) => l.id) };
}
