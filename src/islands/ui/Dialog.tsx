import { useEffect, useRef, type ReactNode } from 'react';
import { X } from 'lucide-react';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Tailwind max-width class for the panel. */
  size?: 'sm' | 'md' | 'lg' | 'xl' | '2xl';
  className?: string;
}

const SIZES = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-4xl', '2xl': 'max-w-6xl' };

/** Modal dialog on the native <dialog> element (focus trap, Escape and inert page for free). */
export function Dialog({ open, onClose, title, description, children, footer, size = 'md', className = '' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      // React passes close and cancel up its tree: a dialog opened inside this one (the player's
      // keys list, the compare view) must not close this one too.
      onClose={(e) => {
        if (e.target !== ref.current) return;
        e.stopPropagation();
        onClose();
      }}
      onCancel={(e) => {
        if (e.target !== ref.current) return;
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
      aria-label={title}
      className={`m-auto w-[calc(100%-1rem)] sm:w-[calc(100%-2rem)] ${SIZES[size]} max-h-[90dvh] overflow-hidden rounded-xl border border-line bg-raised p-0 text-fg shadow-2xl backdrop:bg-black/60 ${className}`}
    >
      {open && (
        <div className="flex max-h-[90dvh] flex-col">
          <header className="flex items-start justify-between gap-4 border-b border-line px-4 py-4 sm:px-6">
            <div>
              <h2 className="text-lg font-semibold">{title}</h2>
              {description && <div className="mt-1 text-sm text-fg-muted">{description}</div>}
            </div>
            <button type="button" onClick={onClose} aria-label="Close" className="rounded p-1 text-fg-muted hover:bg-muted hover:text-fg">
              <X size={18} aria-hidden="true" />
            </button>
          </header>
          {/* Narrower margins on a phone: a player's transport needs the width (issue 53). */}
          <div className="overflow-y-auto px-4 py-4 sm:px-6">{children}</div>
          {footer && <footer className="flex flex-wrap justify-end gap-2 border-t border-line px-4 py-4 sm:px-6">{footer}</footer>}
        </div>
      )}
    </dialog>
  );
}
