import { useEffect, useRef, useState } from 'react';
import type { GridMedia } from './media.tsx';
import { MediaCard, toGridMedia, useMediaDialog } from './media.tsx';
import { CATEGORIES, PORTFOLIO_PAGE_SIZE, portfolioHref, categorySlug, type Category } from '../../shared/portfolio.ts';
import type { PortfolioPageResponse } from '../../shared/schemas/portfolio.ts';
import type { PublicMedia } from '../../server/media/queries.ts';
import { apiGet, errorMessage } from '../../shared/api.ts';

/** Hover previews start this far into the video (000 §9). */
export const PREVIEW_START_SECONDS = 2;

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

export interface PortfolioGridProps {
  /** This page's items (server-rendered: ?page=N shows page N without JavaScript). */
  items: GridMedia[];
  category: Category;
  /** Every portfolio item counts for the filter's threshold (000 §9), not only this category. */
  showFilter: boolean;
  page: number;
  /** The next page as a real link (null on the last page) and its cursor for the API. */
  nextCursor: string | null;
}

/**
 * Portfolio grid (000 §2, issue 23): the category filter as links to server-rendered pages,
 * hover previews, the player dialog, and "Load more", a real link to the next page that
 * appends in place (and by itself when it scrolls into view) once JavaScript runs.
 */
export default function PortfolioGrid({ items: first, category, showFilter, page, nextCursor: firstCursor }: PortfolioGridProps) {
  const [items, setItems] = useState(first);
  const [cursor, setCursor] = useState(firstCursor);
  const [nextPage, setNextPage] = useState(page + 1);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const hoverTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const more = useRef<HTMLAnchorElement>(null);
  const { open, dialog } = useMediaDialog();

  const loadMore = async () => {
    if (!cursor || loading) return;
    setLoading(true);
    setError(null);
    try {
      const q = new URLSearchParams({ limit: String(PORTFOLIO_PAGE_SIZE), cursor });
      if (category !== 'All') q.set('category', categorySlug(category));
      const res = await apiGet<PortfolioPageResponse<PublicMedia>>(`/api/media/portfolio?${q}`);
      if (!res) return;
      setItems((list) => [...list, ...res.items.filter((n) => !list.some((o) => o.id === n.id)).map(toGridMedia)]);
      setCursor(res.nextCursor);
      setNextPage((p) => p + 1);
    } catch (e) {
      setError(errorMessage(e, 'More work could not be loaded.'));
    } finally {
      setLoading(false);
    }
  };

  // Infinite loading: the link loads the next page when it comes into view (not after an error).
  useEffect(() => {
    const el = more.current;
    if (!el || !cursor || error || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), { rootMargin: '400px 0px' });
    io.observe(el);
    return () => io.disconnect();
  });

  return (
    <>
      {showFilter && (
        <nav aria-label="Filter by category" className="mb-10 flex flex-wrap justify-center gap-2">
          {CATEGORIES.map((c) => (
            <a
              key={c}
              href={portfolioHref(c)}
              aria-current={category === c ? 'page' : undefined}
              className="inline-flex h-10 items-center rounded-full border border-line px-5 text-sm font-medium text-fg-muted transition-colors hover:text-fg aria-[current=page]:border-accent aria-[current=page]:bg-accent aria-[current=page]:text-accent-fg"
            >
              {c}
            </a>
          ))}
        </nav>
      )}
      {items.length === 0 ? (
        <div className="rounded-lg border border-dashed border-line px-6 py-16 text-center" data-testid="portfolio-empty">
          <h2 className="font-display text-2xl">No media found</h2>
          <p className="mt-2 text-fg-muted">Try selecting a different category or check back later.</p>
        </div>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="portfolio-grid">
          {items.map((item) => (
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
      {cursor && (
        <div className="mt-10 flex flex-col items-center gap-2">
          <a
            ref={more}
            href={portfolioHref(category, nextPage)}
            onClick={(e) => {
              if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              void loadMore();
            }}
            aria-busy={loading}
            data-testid="load-more"
            className="inline-flex h-11 items-center rounded-full border border-line px-6 text-sm font-medium text-fg hover:border-accent"
          >
            {loading ? 'Loading...' : 'Load more'}
          </a>
          {error && (
            <p role="alert" className="text-sm text-danger">
              {error}
            </p>
          )}
        </div>
      )}
      {dialog}
    </>
  );
}
