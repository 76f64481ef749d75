// What the public site may see of a media item: read by src/server/media/queries.ts, shown by
// the public pages and the grid islands. A type only, so islands need not import from src/server (issue 34).
import type { Playback } from './schemas/media.ts';

/** What the public site may see of a media item (000 §3). */
export interface PublicMedia extends Playback {
  id: number;
  type: 'image' | 'video';
  title: string;
  /** The watch page: /portfolio/{slug}. */
  slug: string;
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

/** What the public grids and the player need of an item (src/islands/public/media.tsx trims to it). */
export type GridMedia = Pick<
  PublicMedia,
  | 'id'
  | 'type'
  | 'title'
  | 'slug'
  | 'url'
  | 'thumbnailUrl'
  | 'thumbnailWebpUrl'
  | 'webpUrl'
  | 'posterUrl'
  | 'tags'
  | 'width'
  | 'height'
  | 'playbackUrl'
  | 'renditions'
  | 'spriteUrl'
  | 'processingStatus'
  | 'processingProgress'
>;
