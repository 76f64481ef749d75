// One image of the grid (issue 42): the picture at the right size for its tile (AVIF, else WebP),
// and its heart, pick and compare controls. A pick the list cannot take says why (its title and
// its screen-reader text); pressing it anyway tells the viewer in a toast.
// A tile is mounted while the viewer scrolls, so it stays small: heart and compare exist only
// while the pointer or keyboard focus is on the tile (or when on, or on touch and narrow screens,
// where they always show), and the controls' icons are CSS masks (.still-icon, global.css), not
// SVGs: at 15 to 19 elements a tile, mounting them was most of the scroll's long tasks (issue 42).
import { memo, startTransition, useEffect, useState, type FocusEvent } from 'react';
import { Star } from 'lucide-react';
import { useMediaQuery } from '../ui/useMediaQuery.ts';
import type { ViewerImage, ViewerList } from '../../shared/schemas/proofing.ts';
import { srcset, thumbUrl } from './files.ts';
import { pickBlocked } from './useGallery.ts';
import type { Fling } from './fling.ts';

const control =
  'still-icon inline-flex h-8 w-8 sm:h-9 sm:w-9 items-center justify-center rounded-full bg-black/55 text-white hover:bg-black/70 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-gold-400 aria-disabled:opacity-50';

/** A control that is on (compare chosen, picked). */
const on = 'bg-gold-500 text-black hover:bg-gold-400';

/** Screens where the controls always show: no hover to reveal them, or a phone's width. */
const ALWAYS_CONTROLS = '(hover: none), (max-width: 639.98px)';

export const StillTile = memo(function StillTile({
  img,
  fileBase,
  marked = false,
  list,
  width,
  eager,
  fling,
  comparing,
  onOpen,
  onHeart,
  onPick,
  onCompare,
}: {
  img: ViewerImage;
  fileBase: string;
  /** A watermarked link: the marked copy is the one picture (no srcset). */
  marked?: boolean;
  list: ViewerList | undefined;
  width: number;
  eager: boolean;
  /** Whether the page is being flung past: a tile mounted meanwhile loads its picture once it settles. */
  fling?: Fling;
  comparing: boolean;
  onOpen: (id: number) => void;
  onHeart: (id: number) => void;
  onPick: (id: number) => void;
  onCompare: (id: number) => void;
}) {
  const picked = !!list && img.picks.includes(list.id);
  const blocked = pickBlocked(list, img);
  const sizes = `${width}px`;
  // Narrow tiles (phones, portrait images) keep heart and pick; compare is in reach from wider ones.
  const roomy = width >= 130;
  const always = useMediaQuery(ALWAYS_CONTROLS);
  const [pointer, setPointer] = useState(false);
  const [focused, setFocused] = useState(false);
  // Once shown, a picture stays, however fast the page moves again.
  const [pictured, setPictured] = useState(() => !fling?.moving());
  useEffect(() => {
    if (!pictured && fling) return fling.onSettle(() => startTransition(() => setPictured(true)));
  }, [pictured, fling]);
  const engaged = always || pointer || focused;
  const showCompare = roomy && (engaged || comparing);
  const showHeart = engaged || img.heart;
  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
  };
  return (
    <div
      className="relative h-full w-full overflow-hidden rounded-sm bg-muted"
      data-testid="still-tile"
      data-image={img.id}
      // Tiles passing under a still pointer during a fling do not show their controls (each
      // would be a render and a layout in the fling's frames); the first move after it does.
      onPointerEnter={() => !fling?.moving() && setPointer(true)}
      onPointerMove={() => !pointer && !fling?.moving() && setPointer(true)}
      onPointerLeave={() => setPointer(false)}
      onFocus={() => setFocused(true)}
      onBlur={onBlur}
    >
      <button
        type="button"
        onClick={() => onOpen(img.id)}
        className="block h-full w-full focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
        aria-label={`Open ${img.name}`}
      >
        {!pictured ? null : marked && !img.ready ? (
          <span className="flex h-full w-full items-center justify-center p-2 text-center text-xs text-fg-muted">Preparing the watermarked copy…</span>
        ) : (
          <picture>
            {/* AVIF is the smaller file but slower to decode: the first rows (eager) paint from WebP,
                which took their first paint from 0.9 s to 0.6-0.8 s here (issue 42); the rest save bytes. */}
            {img.ready && !marked && !eager && <source type="image/avif" srcSet={srcset(fileBase, img, 'avif')} sizes={sizes} />}
            {img.ready && !marked && <source type="image/webp" srcSet={srcset(fileBase, img, 'webp')} sizes={sizes} />}
            <img
              src={thumbUrl(fileBase, img, marked)}
              alt=""
              width={img.width}
              height={img.height}
              loading={eager ? 'eager' : 'lazy'}
              fetchPriority={eager ? 'high' : 'auto'}
              decoding="async"
              draggable={false}
              className="h-full w-full object-cover"
              // Element Timing: bench/proofing-gallery.mjs reads when the first still is painted.
              {...({ elementtiming: 'still' } as object)}
            />
          </picture>
        )}
      </button>
      {img.stars > 0 && (
        <span
          className="pointer-events-none absolute left-1.5 top-1.5 inline-flex items-center gap-0.5 rounded-full bg-black/55 px-1.5 py-0.5 text-xs text-white"
          aria-label={`${img.stars} of 5 stars`}
        >
          <Star size={12} className="fill-gold-400 text-gold-400" aria-hidden="true" />
          {img.stars}
        </span>
      )}
      {(showCompare || showHeart || list) && (
        <div className="absolute inset-x-0 bottom-0 flex items-center justify-end gap-1 bg-gradient-to-t from-black/55 to-transparent p-1">
          {showCompare && (
            <button
              type="button"
              className={`${control} still-icon-compare ${comparing ? on : ''}`}
              aria-pressed={comparing}
              aria-label={`Compare ${img.name}`}
              title="Compare side by side"
              onClick={() => onCompare(img.id)}
            />
          )}
          {showHeart && (
            <button
              type="button"
              className={`${control} ${img.heart ? 'still-icon-heart-on text-red-500' : 'still-icon-heart'}`}
              aria-pressed={img.heart}
              aria-label={`Heart ${img.name}`}
              title={img.heart ? 'Remove the heart (F)' : 'Heart (F)'}
              onClick={() => onHeart(img.id)}
              data-testid="heart"
            />
          )}
          {list && (
            <button
              type="button"
              className={`${control} still-icon-pick ${picked ? on : ''}`}
              aria-pressed={picked}
              aria-disabled={blocked ? true : undefined}
              aria-label={`Pick ${img.name} for ${list.name}`}
              aria-describedby={blocked ? `why-${img.id}` : undefined}
              title={blocked ?? (picked ? `Picked for “${list.name}” (P)` : `Pick for “${list.name}” (P)`)}
              onClick={() => onPick(img.id)}
              data-testid="pick"
            />
          )}
          {blocked && (
            <span id={`why-${img.id}`} className="sr-only">
              {blocked}
            </span>
          )}
        </div>
      )}
    </div>
  );
});
