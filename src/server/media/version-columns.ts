// Writes to a version's file/processing columns. The media row mirrors its current version
// (see media_versions in src/db/schema.ts), so a change to the current version is written to
// the media row too; the media_au_version trigger keeps the two equal from that side.
import { eq, sql } from 'drizzle-orm';
import type { db } from '../../db/index.ts';
import { media, mediaVersions } from '../../db/schema.ts';

type Executor = Pick<typeof db, 'update'>;

/** Columns both tables share (same names in TypeScript and SQL). */
export type VersionColumns = Partial<
  Pick<
    typeof mediaVersions.$inferInsert,
    | 'processingStatus' | 'processingProgress' | 'processingError' | 'renditions' | 'spriteUrl' | 'originalPlayable' | 'probe'
    | 'width' | 'height' | 'durationSeconds' | 'posterUrl' | 'thumbnailUrl' | 'thumbnailWebpUrl'
  >
>;

/** Updates the version and, when it is the current one, the media row. `onlyIf` narrows both (e.g. status = processing). */
export async function updateVersionColumns(tx: Executor, versionId: number, set: VersionColumns, onlyIfStatus?: 'processing'): Promise<void> {
  const vWhere = onlyIfStatus ? sql`${mediaVersions.id} = ${versionId} AND ${mediaVersions.processingStatus} = ${onlyIfStatus}` : eq(mediaVersions.id, versionId);
  await tx.update(mediaVersions).set(set).where(vWhere);
  const current = sql`${media.storageKey} = (SELECT storage_key FROM media_versions WHERE id = ${versionId})`;
  await tx.update(media).set(set).where(onlyIfStatus ? sql`${current} AND ${media.processingStatus} = ${onlyIfStatus}` : current);
}
