// Which version a client's rating or note is about: the one named (it must be this item's),
// else the current one.
import { and, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { mediaVersions } from '../../db/schema.ts';
import { badRequest } from '../http.ts';
import type { MediaRow } from '../media/queries.ts';

export async function reviewedVersion(item: MediaRow, versionId: number | undefined) {
  const [v] = await db
    .select({ id: mediaVersions.id, number: mediaVersions.number, durationSeconds: mediaVersions.durationSeconds })
    .from(mediaVersions)
    .where(and(eq(mediaVersions.mediaId, item.id), versionId ? eq(mediaVersions.id, versionId) : eq(mediaVersions.storageKey, item.storageKey)))
    .limit(1);
  if (!v) throw badRequest('versionId: Unknown version of this media');
  return v;
}
