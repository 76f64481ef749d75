// Shared pieces of the public media grids: the item shape, the card and the player hook.
import { lazy, Suspense, useCallback, useRef, useState, type ReactNode } from 'react';
import type React from 'react';
import { Image as ImageIcon, Play } from 'lucide-react';
import type { GridMedia, PublicMedia } from '../../shared/public-media.ts';

export type { GridMedia } from '../../shared/public-media.ts';

/** Trims a media item to what the grids need, keeping the serialised island props small. */
export function toGridMedia(m: PublicMedia): GridMedia {
  const { id, type, title, slug, url, thumbnailUrl, thumbnailWebpUrl, webpUrl, posterUrl, tags, width, height, playbackUrl, renditions, spriteUrl, processingStatus, processingProgress } = m;
  return { id, type, title, slug, url, thumbnailUrl, thumbnailWebpUrl, webpUrl, posterUrl, tags, width, height, playbackUrl, renditions, spriteUrl, processingStatus, processingProgress };
}

// The player is loaded on first open, so pages do not pay for it up front.
const MediaPlayer = lazy(() => import('./MediaPlayer.tsx'));

/** Opens the player dialog for an item and returns focus to the card that opened it. */
export function useMediaDialog(): { open: (item: GridMedia, opener: HTMLElement) => void; dialog: ReactNode } {
  const [active, setActive] = useState<GridMedia | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  // Stable, so GridEnhancer binds its delegated listeners once rather than on every render.
  const open = useCallback((item: GridMedia, el: HTMLElement) => {
    opener.current = el;
    setActive(item);
  }, []);
  const close = () => {
    setActive(null);
    requestAnimationFrame(() => opener.current?.focus());
  };
  const dialog = active ? (
    <Suspense fallback={null}>
      <MediaPlayer key={active.id} item={active} onClose={close} />
    </Suspense>
  ) : null;
  return { open, dialog };
}

function Thumbnail({ item }: { item: GridMedia }) {
  const jpeg = item.thumbnailUrl ?? (item.type === 'image' ? item.url : item.posterUrl);
  const webp = item.thumbnailWebpUrl ?? (item.type === 'image' ? item.webpUrl : null);
  if (!jpeg && !webp) {
    return (
      <span className="absolute inset-0 flex items-center justify-center bg-gradient-to-br from-ink-800 to-ink-950 text-paper-400">
        <ImageIcon size={32} aria-hidden="true" />
      </span>
    );
  }
  return (
    <picture>
      {webp && <source type="image/webp" srcSet={webp} />}
      <img
        src={jpeg ?? webp!}
        alt=""
        width={640}
        height={360}
        loading="lazy"
        decoding="async"
        className="absolute inset-0 h-full w-full object-cover transition-transform duration-500 group-hover:scale-[1.03] motion-reduce:transition-none"
      />
    </picture>
  );
}

/** Whether a click should open the dialog rather than follow the card's link. */
export const isPlainClick = (e: MouseEvent | React.MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

/**
 * A grid card: a real link to the item's watch page (issue 21), so it works before
 * hydration, without JavaScript and in a new tab. Rendered as plain server HTML (MediaGridList);
 * GridEnhancer opens the player dialog on a plain click and fills the preview slot on hover.
 */
export function MediaCard({ item }: { item: GridMedia }) {
  return (
    <a
      href={`/portfolio/${encodeURIComponent(item.slug)}`}
      aria-label={`${item.type === 'video' ? 'Play' : 'View'} ${item.title}`}
      data-testid="media-card"
      data-media-id={item.id}
      className="group relative block aspect-video w-full overflow-hidden rounded-lg bg-ink-900 text-left outline-offset-4"
    >
      <Thumbnail item={item} />
      <span data-preview-slot="" />
      <span className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/85 via-black/50 to-transparent px-4 pb-3 pt-10">
        <span className="block truncate font-display text-lg text-white">{item.title}</span>
      </span>
      {item.type === 'video' && (
        <span className="absolute right-3 top-3 flex h-9 w-9 items-center justify-center rounded-full bg-black/60 text-white" aria-hidden="true">
          <Play size={16} className="translate-x-px" />
        </span>
      )}
    </a>
  );
}

/** The grid's list, server-rendered (no client directive): one card per item. */
export function MediaGridList({ id, items, testid }: { id: string; items: GridMedia[]; testid: string }) {
  return (
    <ul id={id} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid={testid}>
      {items.map((item) => (
        <li key={item.id}>
          <MediaCard item={item} />
        </li>
      ))}
    </ul>
  );
}
