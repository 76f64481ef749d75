import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  icon?: ReactNode;
  destructive?: boolean;
  href?: string;
}

/** A menu button: Enter/Space/ArrowDown open it, arrows move, Escape closes and refocuses. */
export function Menu({ trigger, label, items, align = 'end' }: { trigger: ReactNode; label: string; items: MenuItem[]; align?: 'start' | 'end' }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const first = list.current?.querySelector<HTMLElement>('[role="menuitem"]');
    first?.focus();
    const onDoc = (e: MouseEvent) => {
      if (!list.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, [open]);

  const move = (delta: number) => {
    const els = [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = els.indexOf(document.activeElement as HTMLElement);
    els[(i + delta + els.length) % els.length]?.focus();
  };

  return (
    <div className="relative inline-block">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        aria-label={label}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className="inline-flex items-center justify-center rounded-md p-1.5 hover:bg-muted"
      >
        {trigger}
      </button>
      {open && (
        <div
          ref={list}
          id={id}
          role="menu"
          aria-label={label}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') (e.preventDefault(), move(1));
            if (e.key === 'ArrowUp') (e.preventDefault(), move(-1));
            if (e.key === 'Escape' || e.key === 'Tab') {
              setOpen(false);
              button.current?.focus();
            }
          }}
          className={`absolute z-50 mt-1 min-w-48 rounded-md border border-line bg-raised p-1 shadow-lg ${align === 'end' ? 'right-0' : 'left-0'}`}
        >
          {items.map((item) =>
            item.href ? (
              <a key={item.label} role="menuitem" href={item.href} tabIndex={-1} className="flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm hover:bg-muted focus:bg-muted">
                {item.icon}
                {item.label}
              </a>
            ) : (
              <button
                key={item.label}
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  setOpen(false);
                  item.onSelect();
                }}
                className={`flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm hover:bg-muted focus:bg-muted ${item.destructive ? 'text-danger' : ''}`}
              >
                {item.icon}
                {item.label}
              </button>
            ),
          )}
        </div>
      )}
    </div>
  );
}
