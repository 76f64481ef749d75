import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Bell, CheckCircle2, MessageSquare, MessageSquareText } from 'lucide-react';
import { apiJson } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import type { BellAnswer, BellEvent } from '../../../shared/schemas/notifications.ts';
import { useHydrated } from '../../ui/hydration.ts';

/** How often an open admin page asks for new events (also on focus and when the tab shows). */
export const BELL_POLL_MS = 20_000;

const ICONS: Record<string, typeof Bell> = { feedback: MessageSquare, note: MessageSquareText, approval: CheckCircle2 };

/**
 * The staff bell in the admin header (issue 17): the last 50 client and share-link events with
 * an unread badge. Opening it shows the list and marks everything read on the server; the
 * items unread at that moment stay highlighted until it closes. A disclosure (button + panel
 * of links), so Tab moves through the links and Escape closes it.
 */
export default function NotificationBell() {
  const hydrated = useHydrated();
  const [data, setData] = useState<BellAnswer | null>(null);
  const [open, setOpen] = useState(false);
  const [highlight, setHighlight] = useState<Set<number>>(() => new Set());
  const [failed, setFailed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();

  const load = useCallback(async () => {
    try {
      setData(await apiJson<BellAnswer>('GET', '/api/notifications'));
      setFailed(false);
    } catch {
      // A missed poll is retried at the next one; the badge keeps its last count.
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void load();
    const timer = setInterval(() => document.visibilityState === 'visible' && void load(), BELL_POLL_MS);
    const onFocus = () => void load();
    const onVisible = () => document.visibilityState === 'visible' && void load();
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [load]);

  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (!panel.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, [open]);

  const toggle = async () => {
    if (open) return setOpen(false);
    setOpen(true);
    setHighlight(new Set((data?.events ?? []).filter((e) => e.unread).map((e) => e.id)));
    if (data?.unread) {
      try {
        setData(await apiJson<BellAnswer>('POST', '/api/notifications/seen'));
      } catch {
        /* still unread; the next poll shows it */
      }
    }
  };

  const unread = data?.unread ?? 0;
  const label = unread ? `Notifications (${unread} unread)` : 'Notifications';

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={id}
        disabled={!hydrated}
        onClick={() => void toggle()}
        data-testid="notification-bell"
        className="relative inline-flex h-10 w-10 items-center justify-center rounded-md text-fg-muted hover:bg-muted hover:text-fg disabled:cursor-wait"
      >
        <Bell size={18} aria-hidden="true" />
        {unread > 0 && (
          <span aria-hidden="true" className="absolute right-1 top-1 min-w-4 rounded-full bg-accent px-1 text-center text-[10px] font-semibold leading-4 text-accent-fg">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          role="region"
          aria-label="Recent notifications"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              setOpen(false);
              button.current?.focus();
            }
          }}
          className="absolute right-0 z-50 mt-1 w-[min(24rem,calc(100vw-2rem))] overflow-hidden rounded-md border border-line bg-raised shadow-lg"
        >
          <p className="border-b border-line px-4 py-2 text-sm font-medium">Notifications</p>
          {data === null ? (
            <p className="px-4 py-6 text-sm text-fg-muted">{failed ? 'Could not load notifications. Trying again shortly.' : 'Loading...'}</p>
          ) : data.events.length === 0 ? (
            <p className="px-4 py-6 text-sm text-fg-muted">Nothing yet. Client feedback, notes and approvals will show up here.</p>
          ) : (
            <ul className="max-h-[min(28rem,70dvh)] overflow-y-auto py-1">
              {data.events.map((e) => (
                <BellItem key={e.id} event={e} fresh={highlight.has(e.id)} />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

function BellItem({ event, fresh }: { event: BellEvent; fresh: boolean }) {
  const Icon = ICONS[event.kind] ?? Bell;
  return (
    <li>
      <a href={event.path} className={`flex gap-3 px-4 py-2.5 text-sm hover:bg-muted focus-visible:bg-muted ${fresh ? 'bg-muted/60' : ''}`}>
        <Icon size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-fg-muted" />
        <span className="min-w-0">
          <span className="block">
            {fresh && <span className="sr-only">New: </span>}
            {event.summary}
          </span>
          <span className="block text-xs text-fg-muted">{formatDateTime(event.createdAt)}</span>
        </span>
        {fresh && <span aria-hidden="true" className="ml-auto mt-1.5 h-2 w-2 shrink-0 rounded-full bg-accent" />}
      </a>
    </li>
  );
}
