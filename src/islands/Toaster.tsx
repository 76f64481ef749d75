import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { X } from 'lucide-react';
import { $toast, dismissToast, takeCarriedToast } from '../shared/toast.ts';

/** Renders the single toast; F8 moves focus to it (000 §9). */
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
        {t && (
          <div
            key={t.id}
            data-testid="toast"
            data-variant={t.variant}
            className={`pointer-events-auto relative rounded-lg border p-4 pr-10 shadow-lg ${
              t.variant === 'destructive' ? 'border-red-800 bg-red-700 text-white' : 'border-line bg-raised text-fg'
            }`}
          >
            <p className="text-sm font-semibold">{t.title}</p>
            {t.description && <p className="mt-1 text-sm opacity-90">{t.description}</p>}
            <button
              type="button"
              onClick={dismissToast}
              aria-label="Close notification"
              className="absolute right-2 top-2 rounded p-1 opacity-70 hover:opacity-100"
            >
              <X size={16} aria-hidden="true" />
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
