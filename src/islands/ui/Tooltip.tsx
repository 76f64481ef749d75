import { useEffect, useRef, useState, type ReactNode } from 'react';

/** 000 §9: tooltips open after 700 ms; within 300 ms of one closing, the next opens at once. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** How long a pointer must rest on a trigger before its tooltip opens. */
export function tooltipOpenDelay(now: number, lastClosedAt: number): number {
  return now - lastClosedAt < TOOLTIP_SKIP_DELAY_MS ? 0 : TOOLTIP_DELAY_MS;
}

// Shared by every tooltip on the page, so moving along a row of icon buttons skips the wait.
let lastClosedAt = Number.NEGATIVE_INFINITY;

/**
 * The name of an icon-only control, shown on hover (after the delay) and on keyboard focus
 * (at once). The control keeps its own aria-label, so the bubble is hidden from assistive
 * technology rather than read twice; it never takes pointer events, so it cannot cover what
 * the user is about to click. Touch never opens it. Escape or pressing the control closes it.
 */
export function Tooltip({
  label,
  side = 'bottom',
  align = 'center',
  children,
}: {
  label: string;
  side?: 'top' | 'bottom';
  /** `end` lines the bubble up with the trigger's right edge, for controls at a right edge. */
  align?: 'center' | 'end';
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const openRef = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (delay: number) => {
    clearTimeout(timer.current);
    const reveal = () => {
      openRef.current = true;
      setOpen(true);
    };
    if (delay === 0) reveal();
    else timer.current = setTimeout(reveal, delay);
  };
  const hide = () => {
    clearTimeout(timer.current);
    if (openRef.current) lastClosedAt = performance.now();
    openRef.current = false;
    setOpen(false);
  };

  return (
    <span
      className="relative inline-flex"
      data-tooltip-trigger
      onPointerEnter={(e) => {
        if (e.pointerType !== 'touch') show(tooltipOpenDelay(performance.now(), lastClosedAt));
      }}
      onPointerLeave={hide}
      onPointerDown={hide}
      onFocus={(e) => {
        // Keyboard focus only: a click also focuses the button, and must not pop the bubble up.
        if ((e.target as HTMLElement).matches(':focus-visible')) show(0);
      }}
      onBlur={hide}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && openRef.current) hide();
      }}
    >
      {children}
      {open && (
        <span
          role="tooltip"
          aria-hidden="true"
          className={`pointer-events-none absolute z-50 whitespace-nowrap rounded bg-fg px-2 py-1 text-xs font-medium text-bg shadow-md ${
            side === 'top' ? 'bottom-full mb-2' : 'top-full mt-2'
          } ${align === 'end' ? 'right-0' : 'left-1/2 -translate-x-1/2'}`}
        >
          {label}
        </span>
      )}
    </span>
  );
}
