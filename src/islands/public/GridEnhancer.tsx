// The only island of a public media grid (issue 23): the cards are server HTML
// (MediaGridList); this adds the player dialog on a plain click, hover previews, and on the
// portfolio "Load more", which appends the next page's cards into the same list.
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { MediaCard, isPlainClick, toGridMedia, useMediaDialog, type GridMedia } from './media.tsx';
import { ALL, PORTFOLIO_PAGE_SIZE, categorySlug, portfolioHref, type Category } from '../../shared/portfolio.ts';
import type { PortfolioPageResponse } from '../../shared/schemas/portfolio.ts';
import type { PublicMedia } from '../../shared/public-media.ts';
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

export interface GridEnhancerProps {
  /** The id of the server-rendered list (MediaGridList). */
  gridId: string;
  items: GridMedia[];
  /** Hover previews (the portfolio); the home grid has none. */
  previews?: boolean;
  /** Paging (the portfolio): the next page's cursor, or null on the last page. */
  paging?: { category: Category; page: number; nextCursor: string | null };
}

const cardOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLAnchorElement>('a[data-testid="media-card"]') : null);

export default function GridEnhancer({ gridId, items: first, previews = false, paging }: GridEnhancerProps) {
  const [extra, setExtra] = useState<GridMedia[]>([]);
  const [cursor, setCursor] = useState(paging?.nextCursor ?? null);
  const [nextPage, setNextPage] = useState((paging?.page ?? 1) + 1);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [hovered, setHovered] = useState<{ id: number; slot: Element } | null>(null);
  const [grid, setGrid] = useState<HTMLElement | null>(null);
  const more = useRef<HTMLAnchorElement>(null);
  const { open, dialog } = useMediaDialog();
  const all = useRef<Map<number, GridMedia>>(new Map());
  for (const i of [...first, ...extra]) all.current.set(i.id, i);

  useEffect(() => setGrid(document.getElementById(gridId)), [gridId]);

  // Delegated listeners on the server-rendered list: one for every card, present or appended.
  useEffect(() => {
    if (!grid) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const itemOf = (card: HTMLAnchorElement | null) => (card ? all.current.get(Number(card.dataset.mediaId)) : undefined);
    const onClick = (e: MouseEvent) => {
      const card = cardOf(e.target);
      const item = itemOf(card);
      if (!card || !item || !isPlainClick(e)) return;
      e.preventDefault();
      open(item, card);
    };
    const onOver = (e: PointerEvent) => {
      const card = cardOf(e.target);
      const item = itemOf(card);
      if (!previews || e.pointerType !== 'mouse' || !card || !item || item.type !== 'video' || !item.playbackUrl) return;
      if (card.contains(e.relatedTarget as Node | null)) return;
      clearTimeout(timer);
      const slot = card.querySelector('[data-preview-slot]');
      // A short intent delay so sweeping the pointer across the grid loads nothing.
      if (slot) timer = setTimeout(() => setHovered({ id: item.id, slot }), 150);
    };
    const onOut = (e: PointerEvent) => {
      const card = cardOf(e.target);
      if (!card || card.contains(e.relatedTarget as Node | null)) return;
      clearTimeout(timer);
      const id = Number(card.dataset.mediaId);
      setHovered((h) => (h?.id === id ? null : h));
    };
    grid.addEventListener('click', onClick);
    grid.addEventListener('pointerover', onOver);
    grid.addEventListener('pointerout', onOut);
    return () => {
      clearTimeout(timer);
      grid.removeEventListener('click', onClick);
      grid.removeEventListener('pointerover', onOver);
      grid.removeEventListener('pointerout', onOut);
    };
  }, [grid, previews, open]);

  const loadMore = async () => {
    if (!paging || !cursor || loading) return;
    setLoading(true);
    setError(null);
    try {
      const q = new URLSearchParams({ limit: String(PORTFOLIO_PAGE_SIZE), cursor });
      if (paging.category !== ALL) q.set('category', categorySlug(paging.category));
      const res = await apiGet<PortfolioPageResponse<PublicMedia>>(`/api/media/portfolio?${q}`);
      if (!res) return;
      setExtra((list) => [...list, ...res.items.map(toGridMedia).filter((n) => !all.current.has(n.id))]);
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

  const hoveredItem = hovered ? all.current.get(hovered.id) : undefined;
  return (
    <>
      {grid &&
        extra.length > 0 &&
        createPortal(
          extra.map((item) => (
            <li key={item.id}>
              <MediaCard item={item} />
            </li>
          )),
          grid,
        )}
      {hovered && hoveredItem?.playbackUrl && createPortal(<HoverPreview url={hoveredItem.playbackUrl} />, hovered.slot)}
      {paging && cursor && (
        <div className="mt-10 flex flex-col items-center gap-2">
          <a
            ref={more}
            href={portfolioHref(paging.category, nextPage)}
            onClick={(e) => {
              if (!isPlainClick(e)) return;
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
