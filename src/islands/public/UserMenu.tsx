import { useEffect, useId, useRef, useState } from 'react';
import { ChevronDown, LayoutDashboard, LogOut } from 'lucide-react';
import { logoutStaff } from '../../shared/logout.ts';

export interface SignedInUser {
  username: string;
  email: string;
  dashboardHref: string;
}

/** The signed-in staff user's menu in the top navigation: who, Dashboard, Logout (000 §2). */
export default function UserMenu({ username, email, dashboardHref }: SignedInUser) {
  const [open, setOpen] = useState(false);
  const [signedOut, setSignedOut] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDoc = (e: MouseEvent) => {
      if (!panel.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, [open]);

  if (signedOut) {
    return (
      <a href="/client/login" className="inline-flex h-10 items-center rounded-md border border-accent px-4 text-sm font-medium text-fg hover:bg-accent hover:text-accent-fg">
        Client Portal
      </a>
    );
  }

  const move = (delta: number) => {
    const els = [...(panel.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = els.indexOf(document.activeElement as HTMLElement);
    els[(i + delta + els.length) % els.length]?.focus();
  };

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-10 items-center gap-2 rounded-md px-2 text-sm font-medium hover:bg-muted"
        data-testid="user-menu-button"
      >
        <span aria-hidden="true" className="flex h-7 w-7 items-center justify-center rounded-full bg-accent text-xs font-semibold uppercase text-accent-fg">
          {username.slice(0, 1)}
        </span>
        <span className="sr-only">Account menu for </span>
        {username}
        <ChevronDown size={14} aria-hidden="true" />
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          role="menu"
          aria-label="Account"
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') (e.preventDefault(), move(1));
            if (e.key === 'ArrowUp') (e.preventDefault(), move(-1));
            if (e.key === 'Escape' || e.key === 'Tab') {
              setOpen(false);
              button.current?.focus();
            }
          }}
          className="absolute right-0 z-50 mt-2 w-64 rounded-lg border border-line bg-raised p-1 shadow-xl"
        >
          <div className="border-b border-line px-3 py-2" role="none">
            <p className="truncate text-sm font-semibold" data-testid="user-menu-username">{username}</p>
            <p className="truncate text-xs text-fg-muted" data-testid="user-menu-email">{email}</p>
          </div>
          <a role="menuitem" tabIndex={-1} href={dashboardHref} className="mt-1 flex items-center gap-2 rounded px-3 py-2 text-sm hover:bg-muted focus:bg-muted">
            <LayoutDashboard size={16} aria-hidden="true" />
            Dashboard
          </a>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              setOpen(false);
              void logoutStaff({ onLocalSignOut: () => setSignedOut(true) });
            }}
            className="flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm hover:bg-muted focus:bg-muted"
          >
            <LogOut size={16} aria-hidden="true" />
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
