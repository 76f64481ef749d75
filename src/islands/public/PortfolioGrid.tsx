import { useRef, useState } from 'react';
import type { GridMedia } from './media.tsx';
import { MediaCard, useMediaDialog } from './media.tsx';

export const CATEGORIES = ['All', 'Commercial', 'Documentary', 'Corporate', 'Music Video'] as const;
/** The filter appears only above this many items (000 §9). */
export const FILTER_THRESHOLD = 12;
/** Hover previews start this far into the video (000 §9). */
export const PREVIEW_START_SECONDS = 2;

/** 000 §5: an item matches when one of its tags equals the lowercased category name. */
export function matchesCategory(item: GridMedia, category: string): boolean {
  if (category === 'All') return true;
  const wanted = category.toLowerCase();
  return item.tags.some((t) => t === wanted);
}

function HoverPreview({ url }: { url: string }) {
  return (
    <video
      src={url}
      muted
      playsInline
      loop
      preload="metadata"
      aria-hidden="true"
      data-testid="hover-preview"
      className="absolute inset-0 h-full w-full object-cover"
      onLoadedMetadata={(e) => {
        const v = e.currentTarget;
        if (v.duration > PREVIEW_START_SECONDS) v.currentTime = PREVIEW_START_SECONDS;
        v.play().catch(() => {});
      }}
    />
  );
}

/** Portfolio grid with category filter, hover previews and the player dialog (000 §2). */
export default function PortfolioGrid({ items }: { items: GridMedia[] }) {
  const [category, setCategory] = useState<string>('All');
  const [hovered, setHovered] = useState<number | null>(null);
  const hoverTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { open, dialog } = useMediaDialog();
  const showFilter = items.length > FILTER_THRESHOLD;
  const visible = showFilter ? items.filter((i) => matchesCategory(i, category)) : items;

  return (
    <>
      {showFilter && (
        <div role="group" aria-label="Filter by category" className="mb-10 flex flex-wrap justify-center gap-2">
          {CATEGORIES.map((c) => (
            <button
              key={c}
              type="button"
              aria-pressed={category === c}
              onClick={() => setCategory(c)}
              className="h-10 rounded-full border border-line px-5 text-sm font-medium text-fg-muted transition-colors hover:text-fg aria-pressed:border-accent aria-pressed:bg-accent aria-pressed:text-accent-fg"
            >
              {c}
            </button>
          ))}
        </div>
      )}
      {visible.length === 0 ? (
        <div className="rounded-lg border border-dashed border-line px-6 py-16 text-center" data-testid="portfolio-empty">
          <h2 className="font-display text-2xl">No media found</h2>
          <p className="mt-2 text-fg-muted">Try selecting a different category or check back later.</p>
        </div>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="portfolio-grid">
          {visible.map((item) => (
            <li
              key={item.id}
              onPointerEnter={(e) => {
                if (e.pointerType !== 'mouse' || item.type !== 'video') return;
                clearTimeout(hoverTimer.current);
                // A short intent delay so sweeping the pointer across the grid loads nothing.
                hoverTimer.current = setTimeout(() => setHovered(item.id), 150);
              }}
              onPointerLeave={() => {
                clearTimeout(hoverTimer.current);
                setHovered((h) => (h === item.id ? null : h));
              }}
            >
              <MediaCard item={item} onOpen={open} preview={hovered === item.id && item.playbackUrl ? <HoverPreview url={item.playbackUrl} /> : undefined} />
            </li>
          ))}
        </ul>
      )}
      {dialog}
    </>
  );
}
