import { useRef, useState } from 'react';
import { Bell, ExternalLink, LogOut, Menu as MenuIcon, ShieldCheck, X } from 'lucide-react';
import { logoutStaff } from '../../../shared/logout.ts';
import { signOutLive } from '../../live/channel.ts';
import { useHydrated } from '../../ui/hydration.ts';
import { NotifyModeDialog, STAFF_NOTIFY_ABOUT } from '../../notifications/NotifyModeDialog.tsx';

interface Link {
  href: string;
  label: string;
  active: boolean;
}

/** Slide-out menu for small screens: every admin link, Public Site, Notifications (issue 17), Security (issue 56) and Logout (001 §2). */
export default function MobileMenu({ links, signedIn }: { links: Link[]; signedIn: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const [notifyOpen, setNotifyOpen] = useState(false);
  const hydrated = useHydrated();
  const close = () => ref.current?.close();
  return (
    <>
      <button
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        data-testid="mobile-menu-button"
        onClick={() => ref.current?.showModal()}
        disabled={!hydrated}
        className="inline-flex h-10 w-10 items-center justify-center rounded-md hover:bg-muted disabled:cursor-wait"
      >
        <MenuIcon size={20} aria-hidden="true" />
      </button>
      <dialog
        ref={ref}
        aria-label="Admin menu"
        onClick={(e) => {
          if (e.target === ref.current) close();
        }}
        className="fixed inset-y-0 left-auto right-0 m-0 h-dvh max-h-none w-72 max-w-[85vw] border-l border-line bg-raised p-0 text-fg shadow-2xl backdrop:bg-black/60 transition-transform duration-150 starting:open:translate-x-full motion-reduce:transition-none"
      >
        <div className="flex h-full flex-col">
          <div className="flex items-center justify-between border-b border-line px-4 py-3">
            <span className="text-sm font-semibold">Menu</span>
            <button type="button" onClick={close} aria-label="Close menu" className="rounded p-2 hover:bg-muted">
              <X size={18} aria-hidden="true" />
            </button>
          </div>
          <nav aria-label="Admin (mobile)" className="flex-1 overflow-y-auto p-2">
            <ul className="space-y-1">
              {links.map((l) => (
                <li key={l.href}>
                  <a
                    href={l.href}
                    aria-current={l.active ? 'page' : undefined}
                    className={`block rounded-md px-3 py-2.5 text-sm font-medium hover:bg-muted ${l.active ? 'bg-muted text-accent' : ''}`}
                  >
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="space-y-1 border-t border-line p-2">
            <a href="/" className="flex items-center gap-2 rounded-md px-3 py-2.5 text-sm hover:bg-muted">
              <ExternalLink size={16} aria-hidden="true" /> Public Site
            </a>
            {signedIn && (
              <button
                type="button"
                onClick={() => {
                  close();
                  setNotifyOpen(true);
                }}
                className="flex w-full items-center gap-2 rounded-md px-3 py-2.5 text-left text-sm hover:bg-muted"
              >
                <Bell size={16} aria-hidden="true" /> Notifications
              </button>
            )}
            {signedIn && (
              <a href="/admin/security" className="flex items-center gap-2 rounded-md px-3 py-2.5 text-sm hover:bg-muted">
                <ShieldCheck size={16} aria-hidden="true" /> Security
              </a>
            )}
            {signedIn ? (
              <button
                type="button"
                disabled={pending}
                onClick={() => {
                  setPending(true);
                  signOutLive();
                  void logoutStaff({ redirectTo: '/auth' });
                }}
                className="flex w-full items-center gap-2 rounded-md px-3 py-2.5 text-left text-sm hover:bg-muted"
              >
                <LogOut size={16} aria-hidden="true" /> Logout
              </button>
            ) : (
              <a href="/auth" className="flex items-center gap-2 rounded-md px-3 py-2.5 text-sm hover:bg-muted">
                Login
              </a>
            )}
          </div>
        </div>
      </dialog>
      {signedIn && <NotifyModeDialog open={notifyOpen} onClose={() => setNotifyOpen(false)} endpoint="/api/user/notifications" about={STAFF_NOTIFY_ABOUT} />}
    </>
  );
}
