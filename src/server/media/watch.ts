// What a watch page (/portfolio/{slug}, issue 21) and the sitemaps say about an item: the file
// it plays, its description, and the absolute URLs search engines are given.
import type { PublicMedia } from './queries.ts';
import { watchPath } from './queries.ts';
import { progressive } from './playback.ts';

export { watchPath };

export interface WatchSource {
  url: string;
  width: number | null;
  height: number | null;
}

/**
 * The file a watch page plays and structured data names as contentUrl: the largest review
 * proxy up to 1080p, else (before processing finishes) the original when a browser plays it.
 * Only items on the public site reach here, whose files are public (delivery.ts).
 */
export function watchSource(item: Pick<PublicMedia, 'type' | 'renditions' | 'playbackUrl' | 'width' | 'height'>): WatchSource | null {
  if (item.type !== 'video') return null;
  const r = progressive(item.renditions);
  if (r) return { url: r.url, width: r.width, height: r.height };
  return item.playbackUrl ? { url: item.playbackUrl, width: item.width, height: item.height } : null;
}

/**
 * Public text for an item. Staff notes are internal (the admin screens and the client portal
 * show them), so the description is made from the title, the kind of work and the tags.
 */
export function watchDescription(item: Pick<PublicMedia, 'type' | 'title' | 'tags'>, companyName: string): string {
  const tags = item.tags.filter(Boolean);
  return `${item.title}: ${item.type === 'video' ? 'a film' : 'a photograph'} by ${companyName}${tags.length ? ` (${tags.join(', ')})` : ''}.`;
}

/** The best picture for previews: poster, else thumbnail, else the image itself. */
export function watchImage(item: Pick<PublicMedia, 'type' | 'url' | 'posterUrl' | 'thumbnailUrl' | 'webpUrl'>): string | null {
  if (item.type === 'image') return item.url;
  return item.posterUrl ?? item.thumbnailUrl ?? null;
}

/** The bare player page other sites may frame (twitter:player, VideoObject.embedUrl). */
export const embedPath = (slug: string) => `${watchPath(slug)}/embed`;

/** ISO 8601 duration, e.g. PT1M5S (VideoObject.duration). */
export function isoDuration(seconds: number | null): string | undefined {
  if (!seconds || seconds <= 0) return undefined;
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}
