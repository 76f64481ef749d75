// Who may see which media items: one definition for file delivery and for what staff may
// put on a share link (a link never reaches more than its maker may see, issue 31).
import { eq, sql } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media } from '../../db/schema.ts';

/**
 * SQL: the item is shown on the public site (featured, portfolio, or used by a setting).
 * Written out with the table name: drizzle leaves columns unqualified in single-table
 * selects, and a bare "id" inside these subqueries would mean the settings row's id.
 */
export const isPublicSql = sql<number>`(
  "media"."is_featured" = 1 OR "media"."show_in_portfolio" = 1
  OR EXISTS (SELECT 1 FROM website_settings w WHERE w.background_image_id = "media"."id" OR w.background_video_id = "media"."id")
  OR EXISTS (SELECT 1 FROM branding_settings b WHERE "media"."id" IN (b.logo_light_image_id, b.logo_dark_image_id, b.favicon_image_id, b.open_graph_image_id))
  OR EXISTS (SELECT 1 FROM seo_settings s WHERE "media"."id" IN (s.open_graph_image_id, s.twitter_image_id))
)`;

/**
 * Staff who see the whole library: view:media, or edit:website (its media pickers list every
 * item). Other staff see what the public sees.
 */
export function seesWholeLibrary(permissions: readonly string[]): boolean {
  return permissions.includes('view:media') || permissions.includes('edit:website');
}

/**
 * Staff who see the stills uploaded into galleries (issue 53): view:media, as the galleries
 * themselves. Such a still is not a library item: no list or picker of the library names it,
 * and edit:website alone (the site's pickers) does not reach it.
 */
export function seesGalleryStills(permissions: readonly string[]): boolean {
  return permissions.includes('view:media');
}

/** SQL: the item is a library item, not a still uploaded into a gallery (media.gallery_id). */
export const inLibrarySql = sql<number>`("media"."gallery_id" IS NULL)`;

/** SQL: the item is assigned to a client (its own client, or through media_clients). */
export const isAssignedSql = sql<number>`("media"."client_id" IS NOT NULL OR EXISTS (SELECT 1 FROM media_clients mc WHERE mc.media_id = "media"."id"))`;

/**
 * Whether anyone outside the studio sees the item: the public site (featured, portfolio or a
 * site setting) or a client. null when the item is gone.
 */
export async function liveState(mediaId: number, r: Pick<typeof db, 'select'> = db): Promise<{ isPublic: boolean; assigned: boolean } | null> {
  const [row] = await r.select({ isPublic: isPublicSql, assigned: isAssignedSql }).from(media).where(eq(media.id, mediaId)).limit(1);
  return row ? { isPublic: !!row.isPublic, assigned: !!row.assigned } : null;
}
