// Media as the signed-in client sees it: only items assigned to their client, either through
// a media-client link or the item's own clientId (001 §3, §6).
import { and, desc, eq, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media } from '../../db/schema.ts';
import { badRequest, notFound } from '../http.ts';
import type { MediaRow } from '../media/queries.ts';
import { playbackFields } from '../media/playback.ts';
import { assignedTo } from './assigned.ts';
import { normaliseTags, type ClientMedia } from '../../shared/schemas/portal.ts';
import type { ApprovalStatus, DownloadFields, VersionSummary } from '../../shared/schemas/review.ts';
import { asClientSees } from './client-view.ts';


// Only what a client may see (no storage key, flags or uploader).
const clientColumns = {
  id: media.id,
  title: media.title,
  type: media.type,
  url: media.url,
  thumbnailUrl: media.thumbnailUrl,
  thumbnailWebpUrl: media.thumbnailWebpUrl,
  webpUrl: media.webpUrl,
  posterUrl: media.posterUrl,
  filename: media.filename,
  fileSize: media.fileSize,
  mimeType: media.mimeType,
  // The stored text as it is: the column's JSON mapping would throw on a plain
  // comma-separated value, which the portal must still read (001 §3).
  tags: sql<string | null>`${media.tags}`,
  projectStage: media.projectStage,
  notes: media.notes,
  width: media.width,
  height: media.height,
  durationSeconds: media.durationSeconds,
  createdAt: media.createdAt,
  uploadedAt: media.uploadedAt,
  processingStatus: media.processingStatus,
  processingProgress: media.processingProgress,
  processingError: media.processingError,
  renditions: media.renditions,
  spriteUrl: media.spriteUrl,
  originalPlayable: media.originalPlayable,
  // The current version (issue 16): its number, how many there are, the client's decision on it.
  // Columns spelled out with the table name: drizzle leaves them bare in a one-table select,
  // and inside these subqueries a bare storage_key would mean the version's own.
  version: sql<number>`coalesce((SELECT v.number FROM media_versions v WHERE v.storage_key = "media"."storage_key"), 1)`.mapWith(Number),
  versionCount: sql<number>`max(1, (SELECT count(*) FROM media_versions v WHERE v.media_id = "media"."id"))`.mapWith(Number),
  approvalStatus: sql<ApprovalStatus>`coalesce((SELECT v.approval_status FROM media_versions v WHERE v.storage_key = "media"."storage_key"), 'in_review')`,
  approvalLocked: sql<boolean>`coalesce((SELECT v.approval_locked FROM media_versions v WHERE v.storage_key = "media"."storage_key"), 0)`.mapWith(Boolean),
};
type ClientMediaRow = Omit<Pick<MediaRow, Exclude<keyof typeof clientColumns, keyof VersionSummary>>, 'tags'> & { tags: unknown } & VersionSummary;

/** The tags column's text: a JSON list or JSON string, or plain comma-separated text. */
function storedTags(raw: unknown): string[] {
  if (typeof raw !== 'string') return normaliseTags(raw);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return normaliseTags(raw);
  }
  if (parsed === null) return [];
  // Plain text that happens to parse (a lone `2024`) is still a tag.
  return normaliseTags(Array.isArray(parsed) || typeof parsed === 'string' ? parsed : raw);
}

export function toClientMedia(row: ClientMediaRow): Omit<ClientMedia, keyof DownloadFields> {
  return {
    id: row.id,
    title: row.title,
    type: row.type,
    url: row.url,
    thumbnailUrl: row.thumbnailUrl,
    thumbnailWebpUrl: row.thumbnailWebpUrl,
    webpUrl: row.webpUrl,
    posterUrl: row.posterUrl,
    filename: row.filename,
    fileSize: row.fileSize,
    mimeType: row.mimeType,
    tags: storedTags(row.tags),
    projectStage: row.projectStage,
    notes: row.notes,
    width: row.width,
    height: row.height,
    durationSeconds: row.durationSeconds,
    createdAt: row.createdAt.toISOString(),
    uploadedAt: row.uploadedAt.toISOString(),
    version: row.version,
    versionCount: row.versionCount,
    approvalStatus: row.approvalStatus,
    approvalLocked: row.approvalLocked,
    // Clients are told a preview is being prepared, never ffmpeg's reasons.
    ...playbackFields(row),
    processingError: null,
  };
}

/** Everything assigned to the client, newest first, with its download (or why it waits, issue 30). */
export async function listClientMedia(clientId: number): Promise<ClientMedia[]> {
  const rows = await db.select(clientColumns).from(media).where(assignedTo(clientId)).orderBy(desc(media.createdAt), desc(media.id));
  return asClientSees(clientId, rows.map(toClientMedia), (m) => m.type, (m) => m.id);
}

/** The item if it is assigned to the client; 404 otherwise, so other clients' items stay invisible. */
export async function getAssignedMedia(clientId: number, mediaId: number): Promise<MediaRow> {
  const [row] = await db
    .select()
    .from(media)
    .where(and(eq(media.id, mediaId), assignedTo(clientId)))
    .limit(1);
  if (!row) throw notFound('Media not found');
  return row;
}

/** The body names the item too (001 §7); it must be the one in the path. */
export function assertSameMedia(pathId: number, bodyId: number): void {
  if (pathId !== bodyId) throw badRequest('mediaId: mediaId must match the media in the path');
}
