import { useEffect, useRef, useState } from 'react';
import { LayoutDashboard, LogOut, Menu as MenuIcon, X } from 'lucide-react';
import { logoutStaff } from '../../shared/logout.ts';
import type { SignedInUser } from './UserMenu.tsx';
import { useHydrated } from '../ui/hydration.ts';

interface Props {
  links: { href: string; label: string }[];
  current: string;
  user: SignedInUser | null;
}

const SLIDE_MS = 200;

/** Slide-out navigation for narrow screens, on a native modal <dialog> (focus trap, Escape). */
export default function MobileMenu({ links, current, user }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [shown, setShown] = useState(false);
  const hydrated = useHydrated();
  const [signedIn, setSignedIn] = useState(user);

  const open = () => {
    dialog.current?.showModal();
    requestAnimationFrame(() => setShown(true));
  };
  const close = () => {
    setShown(false);
    setTimeout(() => dialog.current?.close(), SLIDE_MS);
  };
  useEffect(() => {
    const mq = matchMedia('(min-width: 768px)');
    const onChange = () => mq.matches && dialog.current?.open && dialog.current.close();
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  const isCurrent = (href: string) => (href === '/' ? current === '/' : current.startsWith(href));

  return (
    <div className="md:hidden">
      <button type="button" onClick={open} disabled={!hydrated} aria-label="Open menu" aria-haspopup="dialog" className="inline-flex h-10 w-10 items-center justify-center rounded-md hover:bg-muted disabled:cursor-wait">
        <MenuIcon size={22} aria-hidden="true" />
      </button>
      <dialog
        ref={dialog}
        aria-label="Menu"
        onCancel={(e) => {
          e.preventDefault();
          close();
        }}
        onClick={(e) => e.target === dialog.current && close()}
        className="m-0 ml-auto h-dvh max-h-none w-[min(20rem,85vw)] max-w-none border-l border-line bg-raised p-0 text-fg backdrop:bg-black/60"
      >
        <div
          className={`flex h-full flex-col gap-6 p-6 transition-transform duration-200 ease-out motion-reduce:transition-none ${shown ? 'translate-x-0' : 'translate-x-full'}`}
        >
          <div className="flex justify-end">
            <button type="button" onClick={close} aria-label="Close menu" className="inline-flex h-10 w-10 items-center justify-center rounded-md hover:bg-muted">
              <X size={22} aria-hidden="true" />
            </button>
          </div>
          <nav aria-label="Mobile">
            <ul className="space-y-1">
              {links.map((l) => (
                <li key={l.href}>
                  <a
                    href={l.href}
                    aria-current={isCurrent(l.href) ? 'page' : undefined}
                    className="block rounded-md px-3 py-3 font-display text-2xl hover:bg-muted aria-[current=page]:text-accent"
                  >
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-auto space-y-3 border-t border-line pt-6">
            {signedIn ? (
              <>
                <div>
                  <p className="text-sm font-semibold">{signedIn.username}</p>
                  <p className="text-xs text-fg-muted">{signedIn.email}</p>
                </div>
                <a href={signedIn.dashboardHref} className="flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-muted">
                  <LayoutDashboard size={16} aria-hidden="true" />
                  Dashboard
                </a>
                <button
                  type="button"
                  onClick={() => void logoutStaff({ onLocalSignOut: () => setSignedIn(null) })}
                  className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-muted"
                >
                  <LogOut size={16} aria-hidden="true" />
                  Logout
                </button>
              </>
            ) : (
              <a href="/client/login" className="flex h-11 items-center justify-center rounded-md bg-accent px-4 text-sm font-medium text-accent-fg">
                Client Portal
              </a>
            )}
          </div>
        </div>
      </dialog>
    </div>
  );
}
