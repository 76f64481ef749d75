import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useStore } from '@nanostores/react';
import { X } from 'lucide-react';
import { $toast, dismissToast, pauseToast, resumeToast, takeCarriedToast, type Toast } from '../shared/toast.ts';

/** A toast dragged right at least this far is dismissed on release (000 §9). */
export const SWIPE_THRESHOLD_PX = 50;
// A press only becomes a swipe after this much rightward travel, so a click (including one on
// the close button, which pointer capture would otherwise retarget) stays a click.
const SWIPE_START_PX = 4;
const LEAVE_MS = 200;

/** Renders the single toast; F8 moves focus to it, swiping it right dismisses it (000 §9). */
export default function Toaster() {
  const t = useStore($toast);
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    takeCarriedToast();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F8') region.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // A toast must sit above any open modal <dialog>: re-entering the top layer (popover)
  // after the dialog opened puts it in front.
  useEffect(() => {
    const el = region.current as (HTMLElement & { showPopover?: () => void; hidePopover?: () => void }) | null;
    if (!el?.showPopover) return;
    try {
      if (el.matches(':popover-open')) el.hidePopover!();
      if (t) el.showPopover();
    } catch {
      /* popover unsupported: stays a fixed element */
    }
  }, [t]);

  return (
    <section
      ref={region}
      tabIndex={-1}
      popover="manual"
      aria-label="Notifications (F8)"
      className="pointer-events-none fixed inset-auto bottom-0 right-0 z-[100] m-0 flex w-full flex-col gap-2 overflow-visible border-0 bg-transparent p-4 text-fg md:max-w-[420px] [&:not(:popover-open)]:flex"
    >
      <div role="status" aria-live="polite" aria-atomic="true">
        {t && <ToastCard key={t.id} t={t} />}
      </div>
    </section>
  );
}

/**
 * One toast, following a rightward pointer drag (mouse, pen or touch alike: pointer capture
 * keeps the events coming when the pointer leaves it). Released at or beyond the threshold, it
 * slides out and is dismissed like the close button; short of it, it snaps back. Leftward
 * travel never moves it.
 */
function ToastCard({ t }: { t: Toast }) {
  const [offset, setOffset] = useState(0);
  const [phase, setPhase] = useState<'rest' | 'drag' | 'leave'>('rest');
  // Refs, not state: several pointermoves can arrive before React re-renders.
  const press = useRef<{ id: number; x: number; swiping: boolean } | null>(null);
  const leaveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(leaveTimer.current), []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    // A press released outside the toast before it became a swipe is never seen ending: replace it.
    if (e.button !== 0 || press.current?.swiping || phase === 'leave') return;
    press.current = { id: e.pointerId, x: e.clientX, swiping: false };
  };

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const p = press.current;
    if (!p || p.id !== e.pointerId) return;
    const dx = e.clientX - p.x;
    if (!p.swiping) {
      if (dx < SWIPE_START_PX) return;
      p.swiping = true;
      e.currentTarget.setPointerCapture(e.pointerId);
      // A mouse drag over the text would otherwise select it.
      window.getSelection()?.removeAllRanges();
      pauseToast();
      setPhase('drag');
    }
    setOffset(Math.max(0, dx));
  };

  const onPointerEnd = (e: PointerEvent<HTMLDivElement>) => {
    const p = press.current;
    if (!p || p.id !== e.pointerId) return;
    press.current = null;
    if (!p.swiping) return;
    if (e.type === 'pointerup' && e.clientX - p.x >= SWIPE_THRESHOLD_PX) {
      if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return dismissToast();
      setPhase('leave');
      leaveTimer.current = setTimeout(dismissToast, LEAVE_MS);
    } else {
      resumeToast();
      setPhase('rest');
      setOffset(0);
    }
  };

  return (
    <div
      data-testid="toast"
      data-variant={t.variant}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      style={{
        transform: phase === 'leave' ? 'translateX(calc(100% + 2rem))' : offset ? `translateX(${offset}px)` : undefined,
        opacity: phase === 'leave' ? 0 : undefined,
      }}
      className={`pointer-events-auto relative touch-pan-y rounded-lg border p-4 pr-10 shadow-lg ${
        phase === 'drag' ? 'select-none' : 'motion-safe:transition-[transform,opacity] motion-safe:duration-200'
      } ${t.variant === 'destructive' ? 'border-red-800 bg-red-700 text-white' : 'border-line bg-raised text-fg'}`}
    >
      <p className="text-sm font-semibold">{t.title}</p>
      {t.description && <p className="mt-1 text-sm opacity-90">{t.description}</p>}
      {t.action && (
        <a
          href={t.action.href}
          onPointerDown={(e) => e.stopPropagation()}
          className="mt-3 inline-flex rounded-md border border-current px-3 py-1.5 text-sm font-medium hover:underline"
        >
          {t.action.label}
        </a>
      )}
      <button
        type="button"
        onClick={dismissToast}
        aria-label="Close notification"
        className="absolute right-2 top-2 rounded p-1 opacity-70 hover:opacity-100"
      >
        <X size={16} aria-hidden="true" />
      </button>
    </div>
  );
}
