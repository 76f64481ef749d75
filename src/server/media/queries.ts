// Read-side media queries shared by the public site, admin and portal.
import { and, desc, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { media } from '../../db/schema.ts';
import type { Playback } from '../../shared/schemas/media.ts';
import { playbackFields } from './playback.ts';

export type MediaRow = typeof media.$inferSelect;

/** What the public site may see of a media item (000 §3). */
export interface PublicMedia extends Playback {
  id: number;
  type: 'image' | 'video';
  title: string;
  url: string;
  thumbnailUrl: string | null;
  thumbnailWebpUrl: string | null;
  webpUrl: string | null;
  posterUrl: string | null;
  tags: string[];
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  createdAt: string;
}

export function toPublicMedia(row: MediaRow): PublicMedia {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    url: row.url,
    thumbnailUrl: row.thumbnailUrl,
    thumbnailWebpUrl: row.thumbnailWebpUrl,
    webpUrl: row.webpUrl,
    posterUrl: row.posterUrl,
    tags: row.tags ?? [],
    width: row.width,
    height: row.height,
    durationSeconds: row.durationSeconds,
    createdAt: row.createdAt.toISOString(),
    // No failure reasons on the public site.
    ...playbackFields(row),
    processingError: null,
  };
}

export async function listFeaturedMedia(): Promise<PublicMedia[]> {
  const rows = await db.select().from(media).where(eq(media.isFeatured, true)).orderBy(desc(media.createdAt), desc(media.id));
  return rows.map(toPublicMedia);
}

export async function listPortfolioMedia(): Promise<PublicMedia[]> {
  const rows = await db.select().from(media).where(eq(media.showInPortfolio, true)).orderBy(desc(media.createdAt), desc(media.id));
  return rows.map(toPublicMedia);
}

export async function getMediaById(id: number): Promise<MediaRow | null> {
  const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
  return row ?? null;
}

export async function getMediaOfType(id: number, type: 'image' | 'video'): Promise<MediaRow | null> {
  const [row] = await db.select().from(media).where(and(eq(media.id, id), eq(media.type, type))).limit(1);
  return row ?? null;
}
