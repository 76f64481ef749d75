// Which media a client may see: its own items (media.client_id) and those assigned to it
// through media-client links (001 §3, §6). The one definition of "assigned".
import { eq, inArray, or } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media, mediaClients } from '../../db/schema.ts';

export function assignedTo(clientId: number, r: Pick<typeof db, 'select'> = db) {
  return or(
    eq(media.clientId, clientId),
    inArray(media.id, r.select({ id: mediaClients.mediaId }).from(mediaClients).where(eq(mediaClients.clientId, clientId))),
  );
}

/** The other way round (issue 41, who is told of a change): the clients an item is assigned to. */
export async function clientsOf(mediaId: number, r: Pick<typeof db, 'select'> = db): Promise<Set<number>> {
  const own = await r.select({ id: media.clientId }).from(media).where(eq(media.id, mediaId));
  const linked = await r.select({ id: mediaClients.clientId }).from(mediaClients).where(eq(mediaClients.mediaId, mediaId));
  return new Set([...own, ...linked].map((row) => row.id).filter((id): id is number => id !== null));
}
