import { useEffect, useId, useRef, useState } from 'react';
import { ChevronDown, ExternalLink, LogOut } from 'lucide-react';
import { logoutStaff } from '../../../shared/logout.ts';

/** The signed-in user's menu: name, email, Public Site, Logout (001 §2). */
export default function UserMenu({ name, email }: { name: string; email: string }) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDoc = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, [open]);

  const move = (delta: number) => {
    const els = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = els.indexOf(document.activeElement as HTMLElement);
    els[(i + delta + els.length) % els.length]?.focus();
  };

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        data-testid="user-menu-button"
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-10 max-w-48 items-center gap-1.5 rounded-md px-3 text-sm font-medium hover:bg-muted"
      >
        <span className="truncate">{name}</span>
        <ChevronDown size={16} aria-hidden="true" />
      </button>
      {open && (
        <div
          id={id}
          role="menu"
          aria-label="User menu"
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') (e.preventDefault(), move(1));
            if (e.key === 'ArrowUp') (e.preventDefault(), move(-1));
            if (e.key === 'Escape') {
              setOpen(false);
              button.current?.focus();
            }
          }}
          className="absolute right-0 z-50 mt-1 w-64 rounded-md border border-line bg-raised p-1 shadow-lg"
        >
          <div className="border-b border-line px-3 py-2">
            <p className="truncate text-sm font-medium">{name}</p>
            <p className="truncate text-xs text-fg-muted">{email}</p>
          </div>
          <a role="menuitem" href="/" tabIndex={-1} className="mt-1 flex items-center gap-2 rounded px-3 py-2 text-sm hover:bg-muted focus:bg-muted">
            <ExternalLink size={16} aria-hidden="true" /> Public Site
          </a>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            disabled={pending}
            onClick={() => {
              setPending(true);
              void logoutStaff({ redirectTo: '/auth' });
            }}
            className="flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm hover:bg-muted focus:bg-muted"
          >
            <LogOut size={16} aria-hidden="true" /> Logout
          </button>
        </div>
      )}
    </div>
  );
}
